// Azure OpenAI's video generation jobs (Sora's first API on Azure), under the v1 base:
// `POST|GET …/video/generations/jobs`, `GET|DELETE …/jobs/{job}`, `GET …/video/generations/{gen}`
// and its `content/video` and `content/thumbnail`. Info routes the journal records (azure.video.…)
// over the session's one video store, in Azure's error shape; a job's status is read from the
// session clock (docs/videos.md).

import { isNeutralError, type NeutralError } from '../../core/errors.js';
import { videoStateAt, type VideoJob, type VideoStatus } from '../../core/video-jobs.js';
import type { DialectRegistration, InfoAnswer, InfoAsk, InfoRouteSpec, WireContext } from '../dialect.js';
import { azure } from '../openai-hosts/azure.js';
import { encodeAzureError, v1Version } from '../openai-hosts/azure-service.js';
import { hostRegistration } from '../openai-hosts/host-dialect.js';
import { infoBody, UnparsedBody } from '../wire-kit/info-json.js';
import { downloadAnswer } from '../videos-kit/content.js';
import { createdAnswer, newJob, promptRequest, storeOf } from '../videos-kit/new-job.js';
import { decodeAzureJobCreate, decodeAzureJobList, type AzureJobStatus } from './decode-request.js';

const BASE = '/azure/openai/v1/video/generations';
const JSON_HEADERS = { 'content-type': 'application/json' };
/** Azure keeps a finished job's content for a day. */
const CONTENT_LIFETIME_SECONDS = 24 * 3600;
const STATUS: Record<VideoStatus, AzureJobStatus> = { queued: 'queued', in_progress: 'running', completed: 'succeeded', failed: 'failed' };

function refused(error: NeutralError, journal?: InfoAnswer['journal']): InfoAnswer {
  return { ...encodeAzureError(error), journal: { ...journal, error } };
}

function notFound(what: string, id: string): NeutralError {
  return { kind: 'not_found', status: 404, code: null, param: null, message: `The ${what} '${id}' was not found.` };
}

const generationId = (job: VideoJob, index: number) => `gen_${job.id.slice('task_'.length)}_${index}`;

function generationObject(job: VideoJob, index: number, finishedAt: number): Record<string, unknown> {
  return {
    object: 'video.generation',
    id: generationId(job, index),
    job_id: job.id,
    created_at: finishedAt,
    width: job.width,
    height: job.height,
    n_seconds: job.seconds,
    prompt: job.prompt,
  };
}

export function azureJobObject(job: VideoJob, clock: number): Record<string, unknown> {
  const state = videoStateAt(job, clock);
  const succeeded = state.status === 'completed';
  const finishedAt = state.finishedAt ?? null;
  return {
    object: 'video.generation.job',
    id: job.id,
    status: STATUS[state.status],
    created_at: job.createdAt,
    finished_at: finishedAt,
    expires_at: succeeded ? (finishedAt as number) + CONTENT_LIFETIME_SECONDS : null,
    generations: succeeded ? Array.from({ length: job.variants ?? 1 }, (_, i) => generationObject(job, i, finishedAt as number)) : [],
    prompt: job.prompt,
    model: job.model,
    n_variants: job.variants ?? 1,
    n_seconds: job.seconds,
    height: job.height,
    width: job.width,
    failure_reason: state.status === 'failed' ? (job.timeline.failure?.code ?? 'internal_error') : null,
  };
}

const json = (body: unknown): InfoAnswer => ({ status: 200, headers: JSON_HEADERS, body: JSON.stringify(body) });

function versionRefusal(ask: InfoAsk): NeutralError | undefined {
  return v1Version({ query: ask.query ?? new URLSearchParams() } as WireContext);
}

function jobOf(ask: InfoAsk): VideoJob | NeutralError {
  const id = ask.params?.job ?? '';
  const job = storeOf(ask.state).get(id);
  return job && job.api === 'azure-jobs' ? job : notFound('job', id);
}

/** The job and variant a generation id names, when that job has succeeded. */
function generationOf(ask: InfoAsk): { job: VideoJob; index: number } | NeutralError {
  const id = ask.params?.generation ?? '';
  const m = /^gen_(.+)_(\d+)$/.exec(id);
  const job = m ? storeOf(ask.state).get(`task_${m[1]}`) : undefined;
  const index = m ? Number(m[2]) : -1;
  if (!job || job.api !== 'azure-jobs' || index >= (job.variants ?? 1) || videoStateAt(job, ask.clock).status !== 'completed') {
    return notFound('generation', id);
  }
  return { job, index };
}

function create(ask: InfoAsk): InfoAnswer {
  const early = versionRefusal(ask);
  if (early) return refused(early);
  const body = infoBody(ask);
  if (body instanceof UnparsedBody) return refused(body.error);
  const decoded = decodeAzureJobCreate(body);
  if (isNeutralError(decoded)) return refused(decoded);
  const request = { request: promptRequest(decoded.model, decoded.prompt) };
  const created = newJob(ask, 'azure-jobs', { ...decoded, referenceBytes: 0 });
  if (!created.ok) return { ...refused(created.error, request), ...(created.act && { act: created.act }) };
  return createdAnswer(created, { status: 200, headers: JSON_HEADERS, body: JSON.stringify(azureJobObject(created.job, ask.clock)) });
}

function list(ask: InfoAsk): InfoAnswer {
  const early = versionRefusal(ask);
  if (early) return refused(early);
  const query = decodeAzureJobList(ask.query ?? new URLSearchParams());
  if (isNeutralError(query)) return refused(query);
  // Newest first, as Azure lists them; `after` pages on to older jobs, `before` to newer ones.
  let jobs = storeOf(ask.state).list('azure-jobs').reverse();
  if (query.statuses) jobs = jobs.filter((job) => query.statuses?.includes(STATUS[videoStateAt(job, ask.clock).status]));
  let start = 0;
  let end = jobs.length;
  if (query.after !== undefined) start = jobs.findIndex((job) => job.id === query.after) + 1;
  if (query.before !== undefined)
    end = Math.max(
      0,
      jobs.findIndex((job) => job.id === query.before),
    );
  const window = jobs.slice(start, end);
  const page = window.slice(0, query.limit);
  return json({
    object: 'list',
    data: page.map((job) => azureJobObject(job, ask.clock)),
    first_id: page[0]?.id ?? null,
    last_id: page[page.length - 1]?.id ?? null,
    has_more: page.length < window.length,
  });
}

function retrieve(ask: InfoAsk): InfoAnswer {
  const early = versionRefusal(ask);
  if (early) return refused(early);
  const job = jobOf(ask);
  return isNeutralError(job) ? refused(job) : json(azureJobObject(job, ask.clock));
}

function remove(ask: InfoAsk): InfoAnswer {
  const early = versionRefusal(ask);
  if (early) return refused(early);
  const job = jobOf(ask);
  if (isNeutralError(job)) return refused(job);
  const store = storeOf(ask.state);
  return { status: 204, headers: {}, body: '', onDelivered: () => void store.delete(job.id) };
}

function generation(ask: InfoAsk): InfoAnswer {
  const early = versionRefusal(ask);
  if (early) return refused(early);
  const found = generationOf(ask);
  if (isNeutralError(found)) return refused(found);
  return json(generationObject(found.job, found.index, videoStateAt(found.job, ask.clock).finishedAt as number));
}

function content(variant: 'video' | 'thumbnail'): (ask: InfoAsk) => InfoAnswer {
  return (ask) => {
    const early = versionRefusal(ask);
    if (early) return refused(early);
    const found = generationOf(ask);
    if (isNeutralError(found)) return refused(found);
    return downloadAnswer(found.job, variant, encodeAzureError);
  };
}

const azureDialect = hostRegistration(azure).routes[0].dialect;

function route(method: InfoRouteSpec['method'], path: string, name: string, answer: (ask: InfoAsk) => InfoAnswer): InfoRouteSpec {
  return { method, path: `${BASE}${path}`, dialect: azureDialect, answer, journalAs: `azure.video.${name}`, stateful: true };
}

export const azureVideoJobsRegistration: DialectRegistration = {
  routes: [],
  providerPaths: {},
  infoRoutes: [
    route('POST', '/jobs', 'jobs.create', create),
    route('GET', '/jobs', 'jobs.list', list),
    route('GET', '/jobs/{job}', 'jobs.retrieve', retrieve),
    route('DELETE', '/jobs/{job}', 'jobs.delete', remove),
    route('GET', '/{generation}', 'generations.retrieve', generation),
    route('GET', '/{generation}/content/video', 'generations.content', content('video')),
    route('GET', '/{generation}/content/thumbnail', 'generations.thumbnail', content('thumbnail')),
  ],
};
