// Imagen's image generation, `models/{model}:predict`: on the Gemini API its own info route
// (operation gemini.predict.images), on Vertex AI the embedding `:predict` route's, which diverts
// a request naming an Imagen model here (vertex.predict.images, embed-routes.ts). Answered with
// the fixture's scripted images (its `images` list) or the default picture, in Google's error shape.

import { isNeutralError, understudyConflict, type NeutralError } from '../../core/errors.js';
import type { ScriptedImage } from '../../core/scripted-image.js';
import type { DialectRegistration, InfoAnswer, InfoAsk, InfoRouteSpec } from '../dialect.js';
import { journalRequest } from '../embeddings-kit/vectors-for.js';
import { defaultPicture } from '../images-kit/default-picture.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import { encodeGeminiError } from './errors.js';
import { decodeImagenPredict, isImagenModel, type ImagenRequest } from './imagen-request.js';
import { gemini } from './index.js';

const GEMINI_VERSIONS = new Set(['v1beta', 'v1', 'v1alpha']);
const VERTEX_VERSIONS = new Set(['v1', 'v1beta1']);
const MIME_OF = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

type Api = 'gemini' | 'vertex';

function refused(error: NeutralError, request?: ImagenRequest, scripted?: ScriptedImage): InfoAnswer {
  return {
    ...encodeGeminiError(error),
    ...(scripted?.delayMs !== undefined && { act: { delayMs: scripted.delayMs } }),
    journal: { error, ...(request && { request: journalRequest(request.model, [request.prompt]) }) },
  };
}

const quoted = (prompt: string) => JSON.stringify(prompt.slice(0, 80));

/** Why the scripted answer (or its absence) cannot be sent for this request, or undefined. */
function answerProblem(request: ImagenRequest, scripted: ScriptedImage | undefined): NeutralError | undefined {
  if (scripted?.unreadFile !== undefined) {
    return understudyConflict(
      'mismatch',
      'fixture_mismatch',
      `the scripted image for prompt ${quoted(request.prompt)} names file ${JSON.stringify(scripted.unreadFile)}, which is read only when a fixture file is loaded (loadFixtureFile, understudy serve --fixtures); send its bytes as b64.`,
    );
  }
  const kind = scripted?.bytes?.kind;
  if (kind === undefined && request.mimeType !== 'image/png') {
    return understudyConflict(
      'mismatch',
      'fixture_mismatch',
      `Understudy draws its default picture as PNG only, and the fixture scripts no image for prompt ${quoted(request.prompt)}: script its bytes (images[].b64) to answer outputMimeType "${request.mimeType}".`,
    );
  }
  if (kind !== undefined && MIME_OF[kind] !== request.mimeType) {
    return understudyConflict(
      'mismatch',
      'fixture_mismatch',
      `the scripted image for prompt ${quoted(request.prompt)} is ${kind}, but the request asked for outputMimeType "${request.mimeType}".`,
    );
  }
  return undefined;
}

function notServed(api: Api, version: string, model: string): NeutralError | undefined {
  if (!(api === 'vertex' ? VERTEX_VERSIONS : GEMINI_VERSIONS).has(version)) {
    return { kind: 'not_found', status: 404, code: 'NOT_FOUND', message: `API version "${version}" is not served here.` };
  }
  if (!isImagenModel(model)) {
    return {
      kind: 'not_found',
      status: 404,
      code: 'NOT_FOUND',
      message: `models/${model} is not found for API version ${version}, or is not supported for predict.`,
    };
  }
  return undefined;
}

function answer(api: Api, ask: InfoAsk): InfoAnswer {
  const model = ask.params?.model ?? '';
  const early = notServed(api, ask.params?.version ?? 'v1beta', model);
  if (early) return refused(early);
  const request = refusalOr(() => decodeImagenPredict(ask.body, model));
  if (isNeutralError(request)) return refused(request);
  const scripted = ask.state.scriptedImage?.(request.prompt, model);
  if (scripted?.error) return refused(scripted.error, request, scripted);
  const problem = answerProblem(request, scripted);
  if (problem) return refused(problem, request, scripted);

  const seed = `${model}\npredict\n${request.prompt}`;
  const predictions = [];
  for (let index = 0; index < request.sampleCount; index++) {
    const bytes =
      scripted?.bytes?.data ?? defaultPicture({ seed, index, width: request.width, height: request.height, transparent: false });
    predictions.push({
      bytesBase64Encoded: bytes.toString('base64'),
      mimeType: request.mimeType,
      // An enhanced prompt, as Imagen reports one: the scripted revisedPrompt.
      ...(scripted?.revisedPrompt !== undefined && { prompt: scripted.revisedPrompt }),
    });
  }
  const act = { ...(scripted?.delayMs !== undefined && { delayMs: scripted.delayMs }), ...(scripted?.fault && { fault: scripted.fault }) };
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=UTF-8' },
    body: JSON.stringify({ predictions }),
    act,
    journal: { request: journalRequest(model, [request.prompt]) },
  };
}

function geminiImagenRoute(prefix: string): InfoRouteSpec {
  return {
    method: 'POST',
    path: `${prefix}/{version}/models/{model}:predict`,
    dialect: gemini,
    answer: (ask) => answer('gemini', ask),
    journalAs: 'gemini.predict.images',
  };
}

/** What Vertex's `:predict` route diverts an Imagen model's request to (its path is that route's). */
export function vertexImagenRoute(path: string): InfoRouteSpec {
  return { method: 'POST', path, dialect: gemini, answer: (ask) => answer('vertex', ask), journalAs: 'vertex.predict.images' };
}

export const geminiImagenRegistration: DialectRegistration = {
  routes: [],
  providerPaths: {},
  infoRoutes: [geminiImagenRoute(''), geminiImagenRoute('/gemini')],
};
