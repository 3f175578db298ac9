// The Gemini API's Veo video generation: `POST models/{model}:predictLongRunning` starts a
// long-running operation `models/{model}/operations/{id}`, `GET {operation}` polls it (done once
// the job's timeline ends on the session clock, with the generated samples' file URIs or the
// failure), and `GET files/{file}:download?alt=media` answers a sample's bytes. Info routes the
// journal records, over the session's one video store, in Google's error shape (docs/videos.md).

import { isNeutralError, type NeutralError } from '../../core/errors.js';
import { videoStateAt, type VideoJob } from '../../core/video-jobs.js';
import type { DialectRegistration, InfoAnswer, InfoAsk, InfoRouteSpec } from '../dialect.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import { downloadAnswer } from '../videos-kit/content.js';
import { createdAnswer, newJob, promptRequest, storeOf } from '../videos-kit/new-job.js';
import { encodeGeminiError } from './errors.js';
import { gemini } from './index.js';
import { decodeVeoRequest } from './video-request.js';
import { VERTEX_VIDEO_ROUTES } from './vertex-video-routes.js';

const VERSIONS = new Set(['v1beta', 'v1', 'v1alpha']);
const JSON_HEADERS = { 'content-type': 'application/json; charset=UTF-8' };
/** Where the live API's file URIs point; @google/genai reads only the file's name from it and
 * downloads from the base URL it was given (Understudy). */
const FILES_ORIGIN = 'https://generativelanguage.googleapis.com';
const RESPONSE_TYPE = 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse';

function refused(error: NeutralError, journal?: InfoAnswer['journal']): InfoAnswer {
  return { ...encodeGeminiError(error), journal: { ...journal, error } };
}

function notFound(message: string): NeutralError {
  return { kind: 'not_found', status: 404, code: 'NOT_FOUND', message };
}

function versionRefusal(ask: InfoAsk): NeutralError | undefined {
  const version = ask.params?.version ?? 'v1beta';
  return VERSIONS.has(version) ? undefined : notFound(`API version "${version}" is not served here.`);
}

/** Google's 409 for a full store: RESOURCE_EXHAUSTED, with the reason in an ErrorInfo. */
function inGoogleTerms(error: NeutralError): NeutralError {
  return error.kind === 'capacity' ? { ...error, type: 'RESOURCE_EXHAUSTED' } : error;
}

const operationName = (job: VideoJob) => `models/${job.model}/operations/${job.id}`;
const fileName = (job: VideoJob, sample: number) => `${job.id}v${sample}`;

function operationObject(job: VideoJob, clock: number): Record<string, unknown> {
  const state = videoStateAt(job, clock);
  const name = operationName(job);
  if (state.status === 'queued' || state.status === 'in_progress') return { name };
  if (state.status === 'failed') {
    const failure = job.timeline.failure;
    const details = failure && [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: failure.code, domain: 'understudy' }];
    return { name, done: true, error: { code: 13, message: failure?.message ?? 'Video generation failed.', ...(details && { details }) } };
  }
  const samples = Array.from({ length: job.variants ?? 1 }, (_, i) => ({
    video: { uri: `${FILES_ORIGIN}/v1beta/files/${fileName(job, i)}:download?alt=media` },
  }));
  return { name, done: true, response: { '@type': RESPONSE_TYPE, generateVideoResponse: { generatedSamples: samples } } };
}

function start(ask: InfoAsk): InfoAnswer {
  const early = versionRefusal(ask);
  if (early) return refused(early);
  const model = ask.params?.model ?? '';
  const decoded = refusalOr(() => decodeVeoRequest(ask.body));
  if (isNeutralError(decoded)) return refused(decoded);
  const request = { request: promptRequest(model, decoded.prompt) };
  const created = newJob(ask, 'gemini', { ...decoded, model, variants: decoded.samples });
  if (!created.ok) return { ...refused(inGoogleTerms(created.error), request), ...(created.act && { act: created.act }) };
  return createdAnswer(created, { status: 200, headers: JSON_HEADERS, body: JSON.stringify({ name: operationName(created.job) }) });
}

function poll(ask: InfoAsk): InfoAnswer {
  const early = versionRefusal(ask);
  if (early) return refused(early);
  const { model = '', operation = '' } = ask.params ?? {};
  const job = storeOf(ask.state).get(operation);
  if (!job || job.api !== 'gemini' || job.model !== model)
    return refused(notFound(`Operation models/${model}/operations/${operation} not found.`));
  return { status: 200, headers: JSON_HEADERS, body: JSON.stringify(operationObject(job, ask.clock)) };
}

function download(ask: InfoAsk): InfoAnswer {
  const early = versionRefusal(ask);
  if (early) return refused(early);
  const file = ask.params?.file ?? '';
  const m = /^(.+)v(\d+)$/.exec(file);
  const job = m ? storeOf(ask.state).get(m[1]) : undefined;
  const sample = m ? Number(m[2]) : -1;
  if (!job || job.api !== 'gemini' || sample >= (job.variants ?? 1) || videoStateAt(job, ask.clock).status !== 'completed') {
    return refused(notFound(`File files/${file} not found.`));
  }
  if (ask.query?.get('alt') !== 'media') {
    return refused({ kind: 'invalid_request', status: 400, code: 'INVALID_ARGUMENT', message: 'Downloads need ?alt=media.', param: 'alt' });
  }
  return downloadAnswer(job, 'video', encodeGeminiError);
}

function routes(prefix: string): InfoRouteSpec[] {
  return [
    {
      method: 'POST',
      path: `${prefix}/{version}/models/{model}:predictLongRunning`,
      dialect: gemini,
      answer: start,
      journalAs: 'gemini.predictLongRunning',
      stateful: true,
    },
    {
      method: 'GET',
      path: `${prefix}/{version}/models/{model}/operations/{operation}`,
      dialect: gemini,
      answer: poll,
      journalAs: 'gemini.operations.get',
      stateful: true,
    },
    {
      method: 'GET',
      path: `${prefix}/{version}/files/{file}:download`,
      dialect: gemini,
      answer: download,
      journalAs: 'gemini.files.download',
      stateful: true,
    },
  ];
}

export const geminiVideoRegistration: DialectRegistration = {
  routes: [],
  providerPaths: {},
  infoRoutes: [...routes(''), ...routes('/gemini'), ...VERTEX_VIDEO_ROUTES],
};
