// Vertex AI's Veo video generation, as @google/genai calls it with `vertexai: true`:
// `POST …/publishers/google/models/{model}:predictLongRunning` starts an operation
// `projects/{p}/locations/{l}/publishers/google/models/{model}/operations/{id}`, and
// `POST …/models/{model}:fetchPredictOperation` with `{operationName}` polls it; once done its
// `response.videos` carry the MP4 inline (`bytesBase64Encoded`), or, for a request that named a
// `storageUri`, the Cloud Storage URI it would be written to (Understudy serves no Cloud Storage).
// Also in express mode (`/{version}/publishers/google/models/…`). Same store and budget as the
// Gemini API's (docs/videos.md).

import { isNeutralError, type NeutralError } from '../../core/errors.js';
import { videoStateAt, type VideoJob } from '../../core/video-jobs.js';
import type { InfoAnswer, InfoAsk, InfoRouteSpec } from '../dialect.js';
import { contentOf } from '../videos-kit/content.js';
import { createdAnswer, newJob, promptRequest, storeOf } from '../videos-kit/new-job.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import { encodeGeminiError } from './errors.js';
import { gemini } from './index.js';
import { decodeVeoRequest } from './video-request.js';

const VERSIONS = new Set(['v1', 'v1beta1']);
const JSON_HEADERS = { 'content-type': 'application/json; charset=UTF-8' };

function refused(error: NeutralError, journal?: InfoAnswer['journal']): InfoAnswer {
  return { ...encodeGeminiError(error), journal: { ...journal, error } };
}

function notFound(message: string): NeutralError {
  return { kind: 'not_found', status: 404, code: 'NOT_FOUND', message };
}

/** The model's resource name as the request's path spells it (with project and location, or none). */
function resourceOf(ask: InfoAsk): string {
  const { project, location, model = '' } = ask.params ?? {};
  const base = `publishers/google/models/${model}`;
  return project === undefined ? base : `projects/${project}/locations/${location}/${base}`;
}

function versionRefusal(ask: InfoAsk): NeutralError | undefined {
  const version = ask.params?.version ?? 'v1';
  return VERSIONS.has(version) ? undefined : notFound(`API version "${version}" is not served here.`);
}

function operationObject(job: VideoJob, resource: string, clock: number): Record<string, unknown> {
  const state = videoStateAt(job, clock);
  const name = `${resource}/operations/${job.id}`;
  if (state.status === 'queued' || state.status === 'in_progress') return { name };
  if (state.status === 'failed')
    return { name, done: true, error: { code: 13, message: job.timeline.failure?.message ?? 'Video generation failed.' } };
  const count = job.variants ?? 1;
  const videos = job.outputUri
    ? Array.from({ length: count }, (_, i) => ({
        gcsUri: `${job.outputUri?.replace(/\/+$/, '')}/${job.id}/sample_${i}.mp4`,
        mimeType: 'video/mp4',
      }))
    : Array.from({ length: count }, () => ({
        bytesBase64Encoded: Buffer.from(contentOf(job, 'video').bytes).toString('base64'),
        mimeType: 'video/mp4',
      }));
  return {
    name,
    done: true,
    response: { '@type': 'type.googleapis.com/cloud.ai.large_models.vision.GenerateVideoResponse', videos, raiMediaFilteredCount: 0 },
  };
}

function start(ask: InfoAsk): InfoAnswer {
  const early = versionRefusal(ask);
  if (early) return refused(early);
  const model = ask.params?.model ?? '';
  const decoded = refusalOr(() => decodeVeoRequest(ask.body, true));
  if (isNeutralError(decoded)) return refused(decoded);
  const request = { request: promptRequest(model, decoded.prompt) };
  const created = newJob(ask, 'gemini', { ...decoded, model, variants: decoded.samples, outputUri: decoded.storageUri });
  if (!created.ok) {
    const error = created.error.kind === 'capacity' ? { ...created.error, type: 'RESOURCE_EXHAUSTED' } : created.error;
    return { ...refused(error, request), ...(created.act && { act: created.act }) };
  }
  const name = `${resourceOf(ask)}/operations/${created.job.id}`;
  return createdAnswer(created, { status: 200, headers: JSON_HEADERS, body: JSON.stringify({ name }) });
}

function fetchOperation(ask: InfoAsk): InfoAnswer {
  const early = versionRefusal(ask);
  if (early) return refused(early);
  const resource = resourceOf(ask);
  const body = ask.body as { operationName?: unknown } | undefined;
  const name = typeof body?.operationName === 'string' ? body.operationName : undefined;
  if (name === undefined) {
    return refused({
      kind: 'invalid_request',
      status: 400,
      code: 'INVALID_ARGUMENT',
      message: 'operationName is required.',
      param: 'operationName',
    });
  }
  const id = name.startsWith(`${resource}/operations/`) ? name.slice(resource.length + '/operations/'.length) : '';
  const job = storeOf(ask.state).get(id);
  if (!job || job.api !== 'gemini' || job.model !== ask.params?.model) return refused(notFound(`Operation ${name} not found.`));
  return { status: 200, headers: JSON_HEADERS, body: JSON.stringify(operationObject(job, resource, ask.clock)) };
}

function routes(base: string): InfoRouteSpec[] {
  return [
    {
      method: 'POST',
      path: `${base}:predictLongRunning`,
      dialect: gemini,
      answer: start,
      journalAs: 'vertex.predictLongRunning',
      stateful: true,
    },
    {
      method: 'POST',
      path: `${base}:fetchPredictOperation`,
      dialect: gemini,
      answer: fetchOperation,
      journalAs: 'vertex.fetchPredictOperation',
      stateful: true,
    },
  ];
}

export const VERTEX_VIDEO_ROUTES: InfoRouteSpec[] = [
  ...routes('/{version}/projects/{project}/locations/{location}/publishers/google/models/{model}'),
  ...routes('/{version}/publishers/google/models/{model}'),
];
