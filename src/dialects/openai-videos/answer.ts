// The answers of OpenAI's video routes (and of Azure's v1 routes, which mirror them): create,
// list, retrieve, delete, content and remix, over the session's video store. A job's status and
// progress are read from the session clock at each request (core/video-jobs.ts, videoStateAt).

import { isNeutralError, type NeutralError } from '../../core/errors.js';
import { videoStateAt, type VideoJob } from '../../core/video-jobs.js';
import type { EncodedBody, InfoAnswer, InfoAsk } from '../dialect.js';
import { downloadAnswer } from '../videos-kit/content.js';
import { createdAnswer, newJob, promptRequest, storeOf } from '../videos-kit/new-job.js';
import { decodeVariant, decodeVideoCreate, decodeVideoList, decodeVideoRemix } from './decode-request.js';

/** How long a completed video's assets stay downloadable, as `expires_at` says. */
const ASSET_LIFETIME_SECONDS = 24 * 3600;
const JSON_HEADERS = { 'content-type': 'application/json' };

export interface VideosHost {
  encodeError(error: NeutralError): EncodedBody;
  /** A refusal before anything else (Azure's api-version), or undefined. */
  before?(ask: InfoAsk): NeutralError | undefined;
}

function refused(host: VideosHost, error: NeutralError, request?: InfoAnswer['journal']): InfoAnswer {
  return { ...host.encodeError(error), journal: { ...request, error } };
}

/** The job as OpenAI's `Video` object, at the session clock. */
export function videoObject(job: VideoJob, clock: number): Record<string, unknown> {
  const state = videoStateAt(job, clock);
  const failure = state.status === 'failed' ? job.timeline.failure : undefined;
  return {
    id: job.id,
    object: 'video',
    model: job.model,
    status: state.status,
    progress: state.progress,
    created_at: job.createdAt,
    completed_at: state.status === 'completed' ? state.finishedAt : null,
    expires_at: state.status === 'completed' ? (state.finishedAt as number) + ASSET_LIFETIME_SECONDS : null,
    prompt: job.prompt,
    seconds: String(job.seconds),
    size: `${job.width}x${job.height}`,
    remixed_from_video_id: job.remixedFrom ?? null,
    error: failure ? { code: failure.code, message: failure.message } : null,
  };
}

function json(body: unknown): InfoAnswer {
  return { status: 200, headers: JSON_HEADERS, body: JSON.stringify(body) };
}

function notFound(id: string): NeutralError {
  return { kind: 'not_found', status: 404, code: null, param: null, message: `No video found with id '${id}'.` };
}

/** The job the path names, or the 404. */
function jobOf(ask: InfoAsk): VideoJob | NeutralError {
  const id = ask.params?.video ?? '';
  const job = storeOf(ask.state).get(id);
  return job && job.api === 'openai' ? job : notFound(id);
}

export async function answerCreate(host: VideosHost, ask: InfoAsk): Promise<InfoAnswer> {
  const early = host.before?.(ask);
  if (early) return refused(host, early);
  const contentType = ask.headers?.['content-type'];
  const decoded = await decodeVideoCreate(ask.bytes ?? Buffer.alloc(0), Array.isArray(contentType) ? contentType[0] : contentType);
  if (isNeutralError(decoded)) return refused(host, decoded);
  const created = newJob(ask, 'openai', decoded);
  const request = { request: promptRequest(decoded.model, decoded.prompt) };
  if (!created.ok) return { ...refused(host, created.error, request), ...(created.act && { act: created.act }) };
  return createdAnswer(created, { status: 200, headers: JSON_HEADERS, body: JSON.stringify(videoObject(created.job, ask.clock)) });
}

export function answerRemix(host: VideosHost, ask: InfoAsk): InfoAnswer {
  const early = host.before?.(ask);
  if (early) return refused(host, early);
  const source = jobOf(ask);
  if (isNeutralError(source)) return refused(host, source);
  const prompt = decodeVideoRemix(ask.body);
  if (isNeutralError(prompt)) return refused(host, prompt);
  const request = { request: promptRequest(source.model, prompt) };
  const state = videoStateAt(source, ask.clock).status;
  if (state !== 'completed') {
    const message = `Video '${source.id}' is ${state}; only a completed video can be remixed.`;
    return refused(host, { kind: 'invalid_request', status: 400, code: null, param: null, message }, request);
  }
  const created = newJob(ask, 'openai', {
    prompt,
    model: source.model,
    seconds: source.seconds,
    width: source.width,
    height: source.height,
    referenceBytes: 0,
    remixedFrom: source.id,
  });
  if (!created.ok) return { ...refused(host, created.error, request), ...(created.act && { act: created.act }) };
  return createdAnswer(created, { status: 200, headers: JSON_HEADERS, body: JSON.stringify(videoObject(created.job, ask.clock)) });
}

export function answerRetrieve(host: VideosHost, ask: InfoAsk): InfoAnswer {
  const early = host.before?.(ask);
  if (early) return refused(host, early);
  const job = jobOf(ask);
  return isNeutralError(job) ? refused(host, job) : json(videoObject(job, ask.clock));
}

export function answerDelete(host: VideosHost, ask: InfoAsk): InfoAnswer {
  const early = host.before?.(ask);
  if (early) return refused(host, early);
  const job = jobOf(ask);
  if (isNeutralError(job)) return refused(host, job);
  const status = videoStateAt(job, ask.clock).status;
  if (status !== 'completed' && status !== 'failed') {
    const message = `Video '${job.id}' is ${status}; only a completed or failed video can be deleted.`;
    return refused(host, { kind: 'invalid_request', status: 400, code: null, param: null, message });
  }
  const store = storeOf(ask.state);
  return { ...json({ id: job.id, object: 'video.deleted', deleted: true }), onDelivered: () => void store.delete(job.id) };
}

export function answerContent(host: VideosHost, ask: InfoAsk): InfoAnswer {
  const early = host.before?.(ask);
  if (early) return refused(host, early);
  const variant = decodeVariant(ask.query ?? new URLSearchParams());
  if (isNeutralError(variant)) return refused(host, variant);
  const job = jobOf(ask);
  if (isNeutralError(job)) return refused(host, job);
  const status = videoStateAt(job, ask.clock).status;
  if (status !== 'completed') {
    const message =
      status === 'failed'
        ? `Video ${job.id} failed: it has no content (GET /v1/videos/${job.id} gives its error).`
        : `Video is not ready yet, use GET /v1/videos/${job.id} to check status.`;
    return refused(host, { kind: 'not_found', status: 404, code: null, param: null, message });
  }
  return downloadAnswer(job, variant, host.encodeError);
}

export function answerList(host: VideosHost, ask: InfoAsk): InfoAnswer {
  const early = host.before?.(ask);
  if (early) return refused(host, early);
  const query = decodeVideoList(ask.query ?? new URLSearchParams());
  if (isNeutralError(query)) return refused(host, query);
  const jobs = storeOf(ask.state).list('openai');
  if (query.order === 'desc') jobs.reverse();
  let start = 0;
  if (query.after !== undefined) {
    const at = jobs.findIndex((job) => job.id === query.after);
    if (at < 0) return refused(host, notFound(query.after));
    start = at + 1;
  }
  const page = jobs.slice(start, start + query.limit);
  return json({
    object: 'list',
    data: page.map((job) => videoObject(job, ask.clock)),
    first_id: page[0]?.id ?? null,
    last_id: page[page.length - 1]?.id ?? null,
    has_more: start + page.length < jobs.length,
  });
}
