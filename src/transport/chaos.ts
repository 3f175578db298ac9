// Injected chaos for load tests without scripts: per session or per request (VidaiMock's request
// headers and `chaos_status` query are accepted as they are, so its users can switch over).
// Decisions use a generator seeded by the request id, so a run is reproducible.

import type { IncomingHttpHeaders } from 'node:http';
import type { NeutralError } from '../core/errors.js';
import type { ChaosOptions, Pacing, StreamFault } from '../core/model.js';
import { seededRandom } from './scheduler.js';

export type { ChaosOptions };

export type ChaosDecision =
  | { kind: 'none'; delayMs: number; pacing?: Pacing; fault?: StreamFault }
  | { kind: 'status'; status: number; delayMs: number; reason: string }
  | { kind: 'rate_limited'; delayMs: number }
  | { kind: 'content_filter'; term: string; delayMs: number };

// Every name starts with x-m or x-v (see mayCarryChaos).
const HEADER_KEYS: [string, keyof ChaosOptions][] = [
  ['x-mock-status', 'status'],
  ['x-vidai-latency', 'latencyMs'],
  ['x-vidai-jitter', 'jitterPct'],
  ['x-vidai-chaos-drop', 'dropPct'],
  ['x-vidai-chaos-malformed', 'malformedPct'],
  ['x-vidai-chaos-trickle', 'trickleMs'],
  ['x-vidai-chaos-disconnect', 'disconnectPct'],
];

function number(value: string | string[] | null | undefined): number | undefined {
  if (value === undefined || value === null || Array.isArray(value)) return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** The session's chaos with this request's headers and query laid over it. */
export function chaosFor(
  session: ChaosOptions | undefined,
  req: { headers: IncomingHttpHeaders; rawHeaders: string[] },
  query: URLSearchParams,
): ChaosOptions | undefined {
  if (!mayCarryChaos(req.rawHeaders) && query.size === 0) return session;
  let merged: ChaosOptions | undefined = session;
  const headers = req.headers;
  for (const [header, key] of HEADER_KEYS) {
    const value = number(headers[header]);
    if (value !== undefined) (merged = merged === session ? { ...session } : merged)![key] = value as never;
  }
  const status = number(query.get('chaos_status'));
  if (status !== undefined) (merged = merged === session ? { ...session } : merged)!.status = status;
  return merged;
}

/** Whether any header name starts like a chaos header (`x-m…`, `x-v…`): one pass over the raw
 * names instead of a lookup per chaos header on every request. */
function mayCarryChaos(rawHeaders: string[]): boolean {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (name.length < 4 || (name.charCodeAt(0) | 32) !== 120 || name.charCodeAt(1) !== 45) continue;
    const third = name.charCodeAt(2) | 32;
    if (third === 109 || third === 118) return true;
  }
  return false;
}

/** What of a request a chaos decision reads. */
export interface ChaosInput {
  /** Seeds the rolls (the request id's hash: the same request, the same decision). */
  seed: number;
  /** The session's count of requests, this one included. */
  requestNumber: number;
  latestUser: string | undefined;
  stream: boolean;
}

export function decideChaos(chaos: ChaosOptions, { seed, requestNumber, latestUser, stream }: ChaosInput): ChaosDecision {
  const random = seededRandom(seed);
  const roll = (pct: number | undefined) => pct !== undefined && pct > 0 && random() * 100 < pct;
  let delayMs = chaos.latencyMs ?? 0;
  if (delayMs > 0 && chaos.jitterPct) delayMs = Math.max(0, delayMs * (1 + ((random() * 2 - 1) * chaos.jitterPct) / 100));
  if (chaos.status !== undefined && chaos.status >= 400 && chaos.status <= 599) {
    return {
      kind: 'status',
      status: Math.trunc(chaos.status),
      delayMs,
      reason: `Simulated error: status ${Math.trunc(chaos.status)} requested`,
    };
  }
  if (chaos.rateLimitAfter !== undefined && requestNumber > chaos.rateLimitAfter) return { kind: 'rate_limited', delayMs };
  if (latestUser !== undefined) {
    const term = chaos.contentFilter?.find((t) => t && latestUser.toLowerCase().includes(t.toLowerCase()));
    if (term) return { kind: 'content_filter', term, delayMs };
  }
  if (roll(chaos.dropPct)) return { kind: 'status', status: 500, delayMs, reason: 'Simulated Internal Server Error (injected chaos)' };
  const pacing = stream && chaos.trickleMs ? { chunksPerSecond: 1000 / Math.max(1, chaos.trickleMs) } : undefined;
  if (roll(chaos.malformedPct))
    return { kind: 'none', delayMs, pacing, fault: { kind: 'malformed', ...(stream ? { afterChunks: 1 } : { afterBytes: 0 }) } };
  if (stream && roll(chaos.disconnectPct)) return { kind: 'none', delayMs, pacing, fault: { kind: 'close', afterChunks: 2 } };
  return { kind: 'none', delayMs, pacing };
}

/** The provider-shaped error an injected-chaos decision answers with, if any. */
export function chaosError(decision: ChaosDecision, chaos: ChaosOptions): NeutralError | undefined {
  switch (decision.kind) {
    case 'status':
      return {
        kind: 'scripted',
        status: decision.status,
        code: decision.status === 429 ? 'rate_limit_exceeded' : null,
        message: decision.reason,
        headers: decision.status === 429 ? { 'retry-after': '1', 'retry-after-ms': '1000' } : undefined,
      };
    case 'rate_limited':
      return {
        kind: 'scripted',
        status: 429,
        code: 'rate_limit_exceeded',
        message: `Rate limit reached: this session allows ${chaos.rateLimitAfter} requests (injected rate limit).`,
        headers: {
          'retry-after': '1',
          'retry-after-ms': '1000',
          'x-ratelimit-limit-requests': String(chaos.rateLimitAfter),
          'x-ratelimit-remaining-requests': '0',
        },
      };
    case 'content_filter':
      return {
        kind: 'content_filter',
        status: 400,
        code: 'content_filter',
        message: `The request was blocked by the content filter: it mentions "${decision.term}".`,
      };
    default:
      return undefined;
  }
}
