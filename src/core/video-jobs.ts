// A session's video jobs (OpenAI's videos, Azure's video generation jobs, Gemini's Veo
// operations: one store per session, shared by them all) and the budget they live within: at most
// `maxJobs` jobs and `maxBytes` payload bytes. A create first reserves its place — its id and its
// share of the budget — when the answer is made, and stores the job only once the answer reached
// the client; a create that was never delivered releases its place, so the next id is the one it
// would have had (docs/videos.md).

import type { NeutralError } from './errors.js';
import type { StreamFault } from './model.js';

export interface VideoCapacity {
  /** Jobs kept at once; 0 disables storage (every create is refused). */
  maxJobs: number;
  /** Payload bytes kept at once, over all jobs (VideoJob.payloadBytes). */
  maxBytes: number;
}

export const DEFAULT_VIDEO_CAPACITY: VideoCapacity = Object.freeze({ maxJobs: 256, maxBytes: 64 * 1024 * 1024 });

/** The bytes a job answers for one of its variants, when the script gave them. */
export interface VideoContent {
  video?: Uint8Array;
  thumbnail?: Uint8Array;
  spritesheet?: Uint8Array;
}

/** How a job runs, from the fixture's `videos` entry or the defaults. */
export interface VideoTimeline {
  /** Seconds from creation to the start of the run. */
  queuedSeconds: number;
  /** Seconds the run takes; at its end the job completes or fails. */
  runSeconds: number;
  outcome: 'completed' | 'failed';
  /** For a failed job: what failed. */
  failure?: { code: string; message: string };
}

export const DEFAULT_VIDEO_TIMELINE: VideoTimeline = Object.freeze({ queuedSeconds: 1, runSeconds: 9, outcome: 'completed' });

/** How a job's content downloads are answered, as its script says. */
export interface VideoDownloadScript {
  error?: NeutralError;
  delayMs?: number;
  fault?: StreamFault;
}

/** What the session's fixture scripts for a video prompt (its `videos` list). */
export interface VideoScript {
  timeline: VideoTimeline;
  content?: VideoContent;
  download?: VideoDownloadScript;
  /** Instead of a job: the provider error the create gets. */
  error?: NeutralError;
  delayMs?: number;
  fault?: StreamFault;
}

/** Which API made a job: each lists only its own. */
export type VideoApi = 'openai' | 'azure-jobs' | 'gemini';

export interface VideoJob {
  id: string;
  api: VideoApi;
  /** Its number in the session's sequence (ids are made from it). */
  number: number;
  createdAt: number;
  prompt: string;
  model: string;
  /** Length of the clip in seconds. */
  seconds: number;
  width: number;
  height: number;
  timeline: VideoTimeline;
  content?: VideoContent;
  download?: VideoDownloadScript;
  /** Bytes counted against the budget: the input reference's and the scripted content's. */
  payloadBytes: number;
  remixedFrom?: string;
  /** Azure's jobs: variants asked for; Gemini's: samples. */
  variants?: number;
  /** Vertex AI: the Cloud Storage prefix the request named for its videos. */
  outputUri?: string;
}

export type VideoStatus = 'queued' | 'in_progress' | 'completed' | 'failed';

export interface VideoState {
  status: VideoStatus;
  /** Percent, 0 to 100. */
  progress: number;
  /** When the run ended (completed or failed); undefined before. */
  finishedAt: number | undefined;
}

/** Where a job is at `clock` (seconds since the epoch, the session clock). */
export function videoStateAt(job: VideoJob, clock: number): VideoState {
  const { queuedSeconds, runSeconds, outcome } = job.timeline;
  const elapsed = clock - job.createdAt;
  if (elapsed < queuedSeconds) return { status: 'queued', progress: 0, finishedAt: undefined };
  const ran = elapsed - queuedSeconds;
  if (ran < runSeconds) return { status: 'in_progress', progress: Math.floor((100 * ran) / runSeconds), finishedAt: undefined };
  const finishedAt = job.createdAt + queuedSeconds + runSeconds;
  return outcome === 'completed' ? { status: 'completed', progress: 100, finishedAt } : { status: 'failed', progress: 0, finishedAt };
}

/** A create's place in the store, held from its answer until it is delivered (commit) or not (release). */
export interface VideoReservation {
  readonly id: string;
  readonly number: number;
  /** Stores the job (with this reservation's id and number); a no-op after a reset or a release. */
  commit(job: Omit<VideoJob, 'id' | 'number'>): void;
  release(): void;
}

export interface VideoCounts {
  jobs: number;
  bytes: number;
}

export class VideoJobStore {
  private readonly jobs = new Map<string, VideoJob>();
  private bytes = 0;
  /** The highest number stored since the last clear. */
  private counter = 0;
  /** Places held by creates answered but not yet delivered: number → payload bytes. */
  private readonly pending = new Map<number, number>();
  private pendingBytes = 0;
  /** Bumped by clear: a reservation from before does nothing. */
  private epoch = 0;
  private limits: VideoCapacity;

  constructor(
    private readonly idOf: (api: VideoApi, number: number) => string,
    capacity: VideoCapacity = DEFAULT_VIDEO_CAPACITY,
  ) {
    this.limits = { ...capacity };
  }

  get capacity(): VideoCapacity {
    return { ...this.limits };
  }

  /** New bounds; like a reset, it clears every job and the byte accounting. */
  configure(capacity: VideoCapacity): void {
    this.limits = { ...capacity };
    this.clear();
  }

  clear(): void {
    this.jobs.clear();
    this.bytes = 0;
    this.counter = 0;
    this.pending.clear();
    this.pendingBytes = 0;
    this.epoch++;
  }

  /** What is stored (places held by undelivered creates not included). */
  counts(): VideoCounts {
    return { jobs: this.jobs.size, bytes: this.bytes };
  }

  /** A place for a new job of `payloadBytes`, or the capacity refusal when either bound would be
   * passed (counting the places other creates hold). */
  reserve(api: VideoApi, payloadBytes: number): VideoReservation | NeutralError {
    const { maxJobs, maxBytes } = this.limits;
    const jobs = this.jobs.size + this.pending.size;
    if (jobs + 1 > maxJobs) {
      const message =
        maxJobs === 0
          ? 'Video job storage is disabled in this session (its video capacity is 0 jobs).'
          : `Video job capacity exceeded: ${jobs} of ${maxJobs} jobs are stored; delete one before creating another.`;
      return capacityExceeded(message);
    }
    if (this.bytes + this.pendingBytes + payloadBytes > maxBytes) {
      return capacityExceeded(
        `Video job capacity exceeded: the job's ${payloadBytes} payload bytes would bring the session past ${maxBytes} bytes (${this.bytes + this.pendingBytes} held).`,
      );
    }
    let number = this.counter + 1;
    while (this.pending.has(number)) number++;
    this.pending.set(number, payloadBytes);
    this.pendingBytes += payloadBytes;
    const epoch = this.epoch;
    const id = this.idOf(api, number);
    let open = true;
    const close = (): boolean => {
      if (!open || epoch !== this.epoch) return false;
      open = false;
      this.pending.delete(number);
      this.pendingBytes -= payloadBytes;
      return true;
    };
    return {
      id,
      number,
      commit: (job) => {
        if (!close()) return;
        this.jobs.set(id, { ...job, id, number, payloadBytes });
        this.bytes += payloadBytes;
        if (number > this.counter) this.counter = number;
      },
      release: () => void close(),
    };
  }

  get(id: string): VideoJob | undefined {
    return this.jobs.get(id);
  }

  /** Removes a job and gives its bytes back; false when there is none of that id. */
  delete(id: string): boolean {
    const job = this.jobs.get(id);
    if (!job) return false;
    this.jobs.delete(id);
    this.bytes -= job.payloadBytes;
    return true;
  }

  /** The jobs one API made, oldest first (by number, which follows creation). */
  list(api: VideoApi): VideoJob[] {
    const out: VideoJob[] = [];
    for (const job of this.jobs.values()) if (job.api === api) out.push(job);
    return out.sort((a, b) => a.number - b.number);
  }
}

export function capacityExceeded(message: string): NeutralError {
  return { kind: 'capacity', status: 409, code: 'video_capacity_exceeded', message, param: null };
}
