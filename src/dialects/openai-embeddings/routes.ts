// OpenAI's embeddings route: an info route (answered from the session's scripted vectors and the
// derived ones, never from a chat script) that the journal records. Chat requests never reach it.

import { isNeutralError } from '../../core/errors.js';
import { float32Base64, floatList } from '../../core/embedding-vectors.js';
import type { DialectRegistration, InfoAnswer, InfoAsk, InfoRouteSpec } from '../dialect.js';
import { inputTokensOf, inputUsage, journalRequest, vectorsFor } from '../embeddings-kit/vectors-for.js';
import { encodeOpenAIError } from '../openai/encode-error.js';
import { openaiChat } from '../openai-chat/index.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import { decodeEmbeddingRequest } from './decode-request.js';

export const OPENAI_EMBEDDINGS_OPERATION = 'openai.embeddings';

function answerEmbeddings(ask: InfoAsk): InfoAnswer {
  const request = refusalOr(() => decodeEmbeddingRequest(ask.body));
  if (isNeutralError(request)) return { ...encodeOpenAIError(request), journal: { error: request } };
  const journalled = journalRequest(request.model, request.inputs);
  const usage = inputUsage(inputTokensOf(request.inputs));
  const models = ask.state.models?.();
  if (models !== undefined && !models.includes(request.model)) {
    const error = {
      kind: 'not_found' as const,
      status: 404,
      type: 'invalid_request_error',
      code: 'model_not_found',
      param: null,
      message: `The model \`${request.model}\` does not exist or you do not have access to it.`,
    };
    return { ...encodeOpenAIError(error), journal: { request: journalled, error } };
  }
  const vectors = vectorsFor(request, ask.state);
  if (isNeutralError(vectors)) return { ...encodeOpenAIError(vectors), journal: { request: journalled, usage, error: vectors } };
  const encode = request.encoding === 'base64' ? float32Base64 : floatList;
  const body = JSON.stringify({
    object: 'list',
    data: vectors.map((vector, index) => ({ object: 'embedding', index, embedding: encode(vector) })),
    model: request.model,
    usage: { prompt_tokens: usage.inputTokens, total_tokens: usage.inputTokens },
  });
  return { status: 200, headers: { 'content-type': 'application/json' }, body, journal: { request: journalled, usage } };
}

const route = (path: string): InfoRouteSpec => ({
  method: 'POST',
  path,
  dialect: openaiChat,
  answer: answerEmbeddings,
  journalAs: OPENAI_EMBEDDINGS_OPERATION,
});

export const openaiEmbeddingsRegistration: DialectRegistration = {
  routes: [],
  providerPaths: {},
  infoRoutes: [route('/v1/embeddings'), route('/openai/v1/embeddings')],
};
