// Mistral's embeddings (`POST /mistral/v1/embeddings`, what @mistralai/mistralai's
// `embeddings.create` sends): OpenAI's answer plus the `id` its SDK requires, and its own request
// members — `output_dimension` for the size, `output_dtype` (float, or quantized as Cohere's types
// are: embeddings-kit/quantized.ts), `encoding_format`, `metadata`. Schema refusals are Mistral's 422 with pydantic's detail.

import { invalidRequest, isNeutralError, type NeutralError } from '../../core/errors.js';
import { float32Base64, MAX_DIMENSIONS } from '../../core/embedding-vectors.js';
import { QUANTIZED } from '../embeddings-kit/quantized.js';
import type { InfoAnswer, InfoAsk } from '../dialect.js';
import { inputTokensOf, inputUsage, journalRequest, vectorsFor } from '../embeddings-kit/vectors-for.js';
import { expectEnum, expectInteger, expectObject, expectString } from '../openai/checks.js';
import { encodeMistralError, mistralRefusal } from '../openai-hosts/mistral-errors.js';
import { isObject } from '../wire-kit/values.js';
import { refusalOr, reject } from '../wire-kit/wire-error.js';
import { inputsOf, type OpenAIEmbeddingRequest } from './decode-request.js';

const DTYPES = ['float', 'int8', 'uint8', 'binary', 'ubinary'] as const;
const ENCODINGS = ['float', 'base64'] as const;

type MistralEmbeddingRequest = OpenAIEmbeddingRequest & { dtype: (typeof DTYPES)[number] };

function decodeMistralEmbedding(body: unknown): MistralEmbeddingRequest {
  if (!isObject(body)) reject(invalidRequest('Input should be a valid dictionary', 'body', 'invalid_type'));
  if (body.model === undefined) reject(invalidRequest('Field required', 'model', 'missing_required_parameter'));
  const model = expectString(body.model, 'model');
  if (body.input === undefined) reject(invalidRequest('Field required', 'input', 'missing_required_parameter'));
  const inputs = inputsOf(body.input);
  const dimensions =
    body.output_dimension === undefined || body.output_dimension === null
      ? undefined
      : expectInteger(body.output_dimension, 'output_dimension', { min: 1, max: MAX_DIMENSIONS });
  const dtype =
    body.output_dtype === undefined || body.output_dtype === null ? 'float' : expectEnum(body.output_dtype, DTYPES, 'output_dtype');
  const encoding = body.encoding_format === undefined ? 'float' : expectEnum(body.encoding_format, ENCODINGS, 'encoding_format');
  if (encoding === 'base64' && dtype !== 'float') {
    reject(
      invalidRequest(`Understudy answers encoding_format "base64" with output_dtype "float" only; found "${dtype}".`, 'encoding_format'),
    );
  }
  if (body.metadata !== undefined && body.metadata !== null) expectObject(body.metadata, 'metadata');
  return { model, inputs, dimensions, encoding, dtype };
}

export function answerMistralEmbeddings(ask: InfoAsk): InfoAnswer {
  const refuse = (error: NeutralError, request?: OpenAIEmbeddingRequest): InfoAnswer => ({
    ...encodeMistralError(error),
    journal: { error, ...(request && { request: journalRequest(request.model, request.inputs) }) },
  });
  const decoded = refusalOr(() => decodeMistralEmbedding(ask.body));
  if (isNeutralError(decoded)) return refuse(mistralRefusal(decoded));
  const vectors = vectorsFor(decoded, ask.state);
  if (isNeutralError(vectors)) return refuse(vectors, decoded);
  const usage = inputUsage(inputTokensOf(decoded.inputs));
  const encode = decoded.encoding === 'base64' ? float32Base64 : QUANTIZED[decoded.dtype];
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id: `embd-${ask.requestId ?? 'understudy'}`,
      object: 'list',
      data: vectors.map((vector, index) => ({ object: 'embedding', embedding: encode(vector), index })),
      model: decoded.model,
      usage: { prompt_tokens: usage.inputTokens, total_tokens: usage.inputTokens, completion_tokens: 0 },
    }),
    journal: { request: journalRequest(decoded.model, decoded.inputs), usage },
  };
}
