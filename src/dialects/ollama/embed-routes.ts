// Ollama's embedding routes, `/api/embed` and the legacy `/api/embeddings` (also under `/ollama`):
// info routes the journal records (ollama.embed, ollama.embeddings), answered from the session's
// scripted vectors and the derived ones. As on /api/chat, a strict catalogue refuses other models,
// and a model answered for is listed by /api/tags afterwards.

import { isNeutralError, type NeutralError } from '../../core/errors.js';
import { floatList } from '../../core/embedding-vectors.js';
import type { InfoAnswer, InfoAsk, InfoRouteSpec } from '../dialect.js';
import { inputTokensOf, inputUsage, journalRequest, vectorsFor, withScriptedAct } from '../embeddings-kit/vectors-for.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import { decodeEmbed, decodeLegacyEmbeddings, type OllamaEmbedRequest } from './embed-request.js';
import { encodeOllamaError } from './errors.js';
import { ollama } from './index.js';
import { listedName, recordModel, strictCatalogue } from './model-catalogue.js';
import { LOAD_NS, PROMPT_TOKEN_NS } from './ollama-metrics.js';

type Route = 'embed' | 'embeddings';

function refused(error: NeutralError, request?: OllamaEmbedRequest): InfoAnswer {
  return { ...encodeOllamaError(error), journal: { error, ...(request && { request: journalRequest(request.model, request.inputs) }) } };
}

function answer(route: Route, ask: InfoAsk): InfoAnswer {
  const request = refusalOr(() => (route === 'embed' ? decodeEmbed : decodeLegacyEmbeddings)(ask.body));
  if (isNeutralError(request)) return refused(request);
  const strict = strictCatalogue(ask.state);
  if (request.model.trim() === '' || (strict !== undefined && !strict.has(listedName(request.model)))) {
    return refused({ kind: 'not_found', status: 404, code: null, message: `model '${request.model}' not found`, param: 'model' }, request);
  }
  const vectors = vectorsFor(request, ask.state);
  if (isNeutralError(vectors)) return refused(vectors, request);
  recordModel(ask.state, request.model, ask.clock);
  const tokens = inputTokensOf(request.inputs);
  const body =
    route === 'embed'
      ? JSON.stringify({
          model: request.model,
          embeddings: vectors.map(floatList),
          total_duration: LOAD_NS + tokens * PROMPT_TOKEN_NS,
          load_duration: LOAD_NS,
          prompt_eval_count: tokens,
        })
      : JSON.stringify({ embedding: vectors.length ? floatList(vectors[0]) : [] });
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body,
    journal: { request: journalRequest(request.model, request.inputs), usage: inputUsage(tokens) },
  };
}

const route = (prefix: string, name: Route): InfoRouteSpec => ({
  method: 'POST',
  path: `${prefix}/api/${name}`,
  dialect: ollama,
  answer: withScriptedAct((ask) => answer(name, ask)),
  journalAs: `ollama.${name}`,
});

export const OLLAMA_EMBED_ROUTES: InfoRouteSpec[] = ['', '/ollama'].flatMap((prefix) => [
  route(prefix, 'embed'),
  route(prefix, 'embeddings'),
]);
