// What every video route's create does, whatever its wire: the job's script (the session
// fixture's `videos` entry for its prompt and model, or the default timeline), its payload bytes,
// and its place in the session's store — refused with the capacity error when either bound would
// be passed. The place is taken when the answer is made and the job stored only once the whole
// answer reached the client (InfoAnswer.onDelivered); otherwise the place is given back.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest } from '../../core/model.js';
import { DEFAULT_VIDEO_TIMELINE, VideoJobStore, type VideoApi, type VideoJob, type VideoReservation } from '../../core/video-jobs.js';
import type { DialectState, InfoAct, InfoAnswer, InfoAsk } from '../dialect.js';

export interface JobAsk {
  prompt: string;
  model: string;
  seconds: number;
  width: number;
  height: number;
  /** Bytes of the input reference the request carried (0 without one). */
  referenceBytes: number;
  remixedFrom?: string;
  variants?: number;
  outputUri?: string;
}

export type NewJob =
  | { ok: true; job: VideoJob; reservation: VideoReservation; act: InfoAct | undefined }
  | { ok: false; error: NeutralError; act: InfoAct | undefined };

/** The session's store; sessions always have one (a bare DialectState in a unit test gets its own). */
export function storeOf(state: DialectState): VideoJobStore {
  return state.videoJobs?.() ?? state.store('video-jobs', () => new VideoJobStore((api, n) => `${api}_${n}`));
}

export function newJob(ask: InfoAsk, api: VideoApi, spec: JobAsk): NewJob {
  const script = ask.state.scriptedVideo?.(spec.prompt, spec.model);
  const act: InfoAct | undefined =
    script && (script.delayMs !== undefined || script.fault)
      ? { ...(script.delayMs !== undefined && { delayMs: script.delayMs }), ...(script.fault && { fault: script.fault }) }
      : undefined;
  if (script?.error) return { ok: false, error: script.error, act };
  const content = script?.content;
  const contentBytes = (content?.video?.length ?? 0) + (content?.thumbnail?.length ?? 0) + (content?.spritesheet?.length ?? 0);
  const payloadBytes = spec.referenceBytes + contentBytes;
  const reservation = storeOf(ask.state).reserve(api, payloadBytes);
  if (!('commit' in reservation)) return { ok: false, error: reservation, act: undefined };
  const job: VideoJob = {
    id: reservation.id,
    number: reservation.number,
    api,
    createdAt: ask.clock,
    prompt: spec.prompt,
    model: spec.model,
    seconds: spec.seconds,
    width: spec.width,
    height: spec.height,
    timeline: script?.timeline ?? DEFAULT_VIDEO_TIMELINE,
    ...(content && { content }),
    ...(script?.download && { download: script.download }),
    payloadBytes,
    ...(spec.remixedFrom !== undefined && { remixedFrom: spec.remixedFrom }),
    ...(spec.variants !== undefined && { variants: spec.variants }),
    ...(spec.outputUri !== undefined && { outputUri: spec.outputUri }),
  };
  return { ok: true, job, reservation, act };
}

/** The answer of a create that made `created`: stored when delivered, its place given back when not. */
export function createdAnswer(created: Extract<NewJob, { ok: true }>, answer: Pick<InfoAnswer, 'status' | 'headers' | 'body'>): InfoAnswer {
  const { job, reservation, act } = created;
  return {
    ...answer,
    ...(act && { act }),
    // A scripted fault is played as scripted, but the client never gets the whole answer (nor
    // the job's id): the job is not kept.
    onDelivered: act?.fault ? () => reservation.release() : () => reservation.commit(job),
    onUndelivered: () => reservation.release(),
    journal: { request: promptRequest(job.model, job.prompt) },
  };
}

/** The request as the journal keeps it: the prompt as a user message. */
export function promptRequest(model: string, prompt: string): ChatRequest {
  return {
    model,
    messages: [{ role: 'user', parts: [{ type: 'text', text: prompt }] }],
    tools: [],
    toolChoice: { type: 'none' },
    parallelToolCalls: false,
    output: { type: 'text' },
    stream: false,
    streamUsage: false,
    promptCaching: 'none',
  };
}
