// The answer to an OpenAI-shaped embeddings request, for OpenAI's own routes and its hosts' (Azure):
// decode, the host's own checks, the vectors, the body; what the journal records beside it.

import { isNeutralError, type NeutralError } from '../../core/errors.js';
import { float32Base64, floatList } from '../../core/embedding-vectors.js';
import type { EncodedBody, InfoAnswer, InfoAsk } from '../dialect.js';
import { inputUsage, journalRequest, vectorsFor } from '../embeddings-kit/vectors-for.js';
import { tokenLimitRefusal, tokensOfInputs } from './token-limits.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import { decodeEmbeddingRequest, type OpenAIEmbeddingRequest } from './decode-request.js';

export interface EmbeddingsHost {
  encodeError(error: NeutralError): EncodedBody;
  /** A refusal before the body is read (Azure's api-version), or undefined. */
  before?(ask: InfoAsk): NeutralError | undefined;
  /** The body's model when the route names it instead (Azure's deployment). */
  modelOf?(ask: InfoAsk): string | undefined;
  /** Whether the session's model catalogue applies (OpenAI's own routes). */
  catalogue: boolean;
}

export function notInCatalogue(model: string, ask: InfoAsk): NeutralError | undefined {
  const models = ask.state.models?.();
  if (models === undefined || models.includes(model)) return undefined;
  return {
    kind: 'not_found',
    status: 404,
    type: 'invalid_request_error',
    code: 'model_not_found',
    param: null,
    message: `The model \`${model}\` does not exist or you do not have access to it.`,
  };
}

export function answerOpenAIEmbeddings(host: EmbeddingsHost, ask: InfoAsk): InfoAnswer {
  const refuse = (error: NeutralError, request?: OpenAIEmbeddingRequest): InfoAnswer => ({
    ...host.encodeError(error),
    journal: { error, ...(request && { request: journalRequest(request.model, request.inputs) }) },
  });
  const early = host.before?.(ask);
  if (early) return refuse(early);
  const routeModel = host.modelOf?.(ask);
  const body =
    routeModel !== undefined && isPlainObject(ask.body) && ask.body.model == null ? { ...ask.body, model: routeModel } : ask.body;
  const decoded = refusalOr(() => decodeEmbeddingRequest(body));
  if (isNeutralError(decoded)) return refuse(decoded);
  const request = routeModel !== undefined ? { ...decoded, model: routeModel } : decoded;
  const missing = host.catalogue ? notInCatalogue(request.model, ask) : undefined;
  if (missing) return refuse(missing, request);
  const tokens = tokensOfInputs(request.inputs);
  const overLimit = tokenLimitRefusal(request.model, tokens);
  if (overLimit) return refuse(overLimit, request);
  const vectors = vectorsFor(request, ask.state);
  if (isNeutralError(vectors)) return refuse(vectors, request);
  const usage = inputUsage(tokens.reduce((sum, n) => sum + n, 0));
  const encode = request.encoding === 'base64' ? float32Base64 : floatList;
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      object: 'list',
      data: vectors.map((vector, index) => ({ object: 'embedding', index, embedding: encode(vector) })),
      model: request.model,
      usage: { prompt_tokens: usage.inputTokens, total_tokens: usage.inputTokens },
    }),
    journal: { request: journalRequest(request.model, request.inputs), usage },
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
