// Messages between the primary process and its workers under `understudy serve --workers N`, and
// what an edge worker is told about each session. See docs/workers.md for the design.

import type { Pacing, StreamFlavour } from '../core/model.js';
import type { PromptCacheOptions } from '../core/prompt-cache.js';
import type { LatenessSnapshot } from '../transport/lateness.js';
import type { MetricsSnapshot } from '../transport/metrics.js';
import type {
  FallbackMode,
  ScenarioSpec,
  ScriptedImageSpec,
  ScriptedSpeechSpec,
  ScriptedTranscriptSpec,
  ScriptedVectorSpec,
} from '../engine/spec.js';

/** A session as the owner describes it to edge workers. */
export interface SessionDescriptor {
  id: string;
  /** The session was deleted: edges drop their replica. */
  removed?: boolean;
  /** True when an edge may answer this session's requests itself; false: it forwards them. */
  local: boolean;
  apiKey: string;
  /** The owner's generation; records of an older one are dropped when they reach the owner. */
  generation: number;
  fallback: FallbackMode;
  clock: number;
  seed: string;
  requireApiKey: boolean;
  pacing?: Pacing;
  streamFlavour?: StreamFlavour;
  models?: readonly string[];
  promptCache: PromptCacheOptions;
  /** Only for local sessions. */
  scenarios?: ScenarioSpec[];
  /** The session's scripted embedding vectors: every replica answers embeddings itself. */
  embeddings?: readonly ScriptedVectorSpec[];
  /** The session's scripted images: every replica answers images itself. */
  images?: readonly ScriptedImageSpec[];
  /** The session's scripted audio (`speech`, `transcriptions`): every replica answers audio itself. */
  speech?: readonly ScriptedSpeechSpec[];
  transcriptions?: readonly ScriptedTranscriptSpec[];
}

/** What an edge tells the owner on each sync. */
export interface EdgeReport {
  pacing: LatenessSnapshot;
  /** Absent when metrics are off. */
  metrics?: MetricsSnapshot;
}

export type ToPrimary =
  | { type: 'owner-ready'; privatePort: number; descriptors: SessionDescriptor[] }
  /** An edge is listening for messages (sent earlier, they would be lost). */
  | { type: 'edge-hello' }
  | { type: 'sync'; id: number }
  /** An edge delivered what it answered; with its paced-write lateness since its last reset and
   * what it counted for the metrics. */
  | { type: 'flushed'; id: number; report: EdgeReport }
  | { type: 'publish'; id: number; descriptors: SessionDescriptor[] }
  | { type: 'applied'; id: number }
  /** The owner resets pacing statistics: every edge resets its own (answered with `pacing-reset`). */
  | { type: 'reset-pacing'; id: number }
  | { type: 'pacing-reset'; id: number };

export type ToWorker =
  | { type: 'start'; ownerPort: number; descriptors: SessionDescriptor[] }
  | { type: 'flush'; id: number }
  /** Every edge delivered; with each edge's report. */
  | { type: 'synced'; id: number; reports: EdgeReport[] }
  | { type: 'descriptors'; id: number; descriptors: SessionDescriptor[] }
  | { type: 'published'; id: number }
  | { type: 'reset-pacing'; id: number }
  | { type: 'pacing-reset'; id: number };

/** Where edges deliver what they answered; served only on the owner's private loopback port. */
export const RECORDS_PATH = '/_understudy/_cluster/records';

export const WORKER_INDEX_ENV = 'UNDERSTUDY_WORKER_INDEX';
export const WORKER_COUNT_ENV = 'UNDERSTUDY_WORKER_COUNT';
