// Ollama's routes that describe the server rather than generate: GET /api/tags (the models it
// has), GET /api/ps (the models loaded), POST /api/show (one model) and GET /api/version, answered
// from the session's catalogue (model-catalogue.ts): with a strict catalogue, /api/tags and /api/show
// know every model of it and /api/ps the ones of it answered for. Understudy knows a model's name, not its
// weights: sizes are 0, `details` names only the format, and the digest is the SHA-256 of the name.

import { nodeCrypto } from '../../core/node-crypto.js';
import type { EncodedBody, InfoAsk, InfoRouteSpec } from '../dialect.js';
import { isObject } from '../wire-kit/values.js';
import { ollamaErrorJson } from './errors.js';
import { ollama } from './index.js';
import { catalogue, listedName, strictCatalogue, type CatalogueEntry } from './model-catalogue.js';
import { createdAt } from './ollama-metrics.js';

/** The Ollama release whose server source the dialect's facts were read from. */
export const OLLAMA_VERSION = '0.33.0';
/** How long a model stays loaded after an answer when the request names no keep_alive. */
const KEEP_ALIVE_SECONDS = 300;
/** What Understudy answers on any model: text, tool calls, thinking and images. */
const CAPABILITIES = ['completion', 'tools', 'thinking', 'vision'];
const DETAILS = '{"parent_model":"","format":"gguf","family":"","families":null,"parameter_size":"","quantization_level":""}';
const HEADERS = { 'content-type': 'application/json; charset=utf-8' };

function ok(body: string): EncodedBody {
  return { status: 200, headers: HEADERS, body };
}

function refused(status: number, message: string): EncodedBody {
  return {
    status,
    headers: HEADERS,
    body: ollamaErrorJson({ kind: status === 404 ? 'not_found' : 'invalid_request', status, code: null, message }),
  };
}

function digest(name: string): string {
  return `"${nodeCrypto().createHash('sha256').update(name).digest('hex')}"`;
}

function naming(name: string): string {
  const quoted = JSON.stringify(name);
  return `"name":${quoted},"model":${quoted}`;
}

/** The models the server has: a strict catalogue's (dated by their first answer, else now), or
 * the ones answered for. */
function known(state: InfoAsk['state'], clock: number): Map<string, CatalogueEntry> {
  const strict = strictCatalogue(state);
  const answered = catalogue(state);
  if (strict === undefined) return answered;
  return new Map([...strict].map((name) => [name, answered.get(name) ?? { since: clock }]));
}

function tags({ state, clock }: InfoAsk): EncodedBody {
  const models = [...known(state, clock)].map(
    ([name, { since }]: [string, CatalogueEntry]) =>
      `{${naming(name)},"modified_at":${createdAt(since)},"size":0,"digest":${digest(name)},"details":${DETAILS}}`,
  );
  return ok(`{"models":[${models.join(',')}]}`);
}

function ps({ state, clock }: InfoAsk): EncodedBody {
  const strict = strictCatalogue(state);
  const loaded = [...catalogue(state).keys()].filter((name) => strict === undefined || strict.has(name));
  const models = loaded.map(
    (name) =>
      `{${naming(name)},"size":0,"digest":${digest(name)},"details":${DETAILS},` +
      `"expires_at":${createdAt(clock + KEEP_ALIVE_SECONDS)},"size_vram":0,"context_length":0}`,
  );
  return ok(`{"models":[${models.join(',')}]}`);
}

function show({ body, text, state, clock }: InfoAsk): EncodedBody {
  if (text.trim() === '') return refused(400, 'missing request body');
  if (body === undefined) return refused(400, 'We could not parse the JSON body of your request.');
  if (body === null) return refused(400, 'model is required');
  if (!isObject(body)) {
    const kind = Array.isArray(body) ? 'array' : typeof body === 'boolean' ? 'bool' : typeof body;
    return refused(400, `json: cannot unmarshal ${kind} into Go value of type api.ShowRequest`);
  }
  // Older clients send the model as `name`.
  const requested = typeof body.model === 'string' && body.model !== '' ? body.model : typeof body.name === 'string' ? body.name : '';
  if (requested === '') return refused(400, 'model is required');
  const entry = known(state, clock).get(listedName(requested));
  if (!entry) return refused(404, `model '${requested}' not found`);
  return ok(
    `{"details":${DETAILS},"model_info":{},"capabilities":${JSON.stringify(CAPABILITIES)},"modified_at":${createdAt(entry.since)}}`,
  );
}

function version(): EncodedBody {
  return ok(`{"version":"${OLLAMA_VERSION}"}`);
}

function at(prefix: string): InfoRouteSpec[] {
  return [
    { method: 'GET', path: `${prefix}/api/tags`, dialect: ollama, answer: tags },
    { method: 'GET', path: `${prefix}/api/ps`, dialect: ollama, answer: ps },
    { method: 'POST', path: `${prefix}/api/show`, dialect: ollama, answer: show },
    { method: 'GET', path: `${prefix}/api/version`, dialect: ollama, answer: version },
  ];
}

export const OLLAMA_INFO_ROUTES: InfoRouteSpec[] = [...at(''), ...at('/ollama')];
