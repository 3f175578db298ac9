// Messages between the primary process and its workers under `understudy serve --workers N`, and
// what an edge worker is told about each session. See docs/workers.md for the design.

import type { Pacing } from '../core/model.js';
import type { PromptCacheOptions } from '../core/prompt-cache.js';
import type { FallbackMode, ScenarioSpec } from '../engine/spec.js';

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
  promptCache: PromptCacheOptions;
  /** Only for local sessions. */
  scenarios?: ScenarioSpec[];
}

export type ToPrimary =
  | { type: 'owner-ready'; privatePort: number; descriptors: SessionDescriptor[] }
  /** An edge is listening for messages (sent earlier, they would be lost). */
  | { type: 'edge-hello' }
  | { type: 'sync'; id: number }
  | { type: 'flushed'; id: number }
  | { type: 'publish'; id: number; descriptors: SessionDescriptor[] }
  | { type: 'applied'; id: number };

export type ToWorker =
  | { type: 'start'; ownerPort: number; descriptors: SessionDescriptor[] }
  | { type: 'flush'; id: number }
  | { type: 'synced'; id: number }
  | { type: 'descriptors'; id: number; descriptors: SessionDescriptor[] }
  | { type: 'published'; id: number };

/** Where edges deliver what they answered; served only on the owner's private loopback port. */
export const RECORDS_PATH = '/_understudy/_cluster/records';

export const WORKER_INDEX_ENV = 'UNDERSTUDY_WORKER_INDEX';
export const WORKER_COUNT_ENV = 'UNDERSTUDY_WORKER_COUNT';
