// A session's record of what happened, bounded by entry count and by bytes; the oldest entries
// are evicted first, counters keep counting after eviction, and an entry too large to keep whole
// is kept truncated and flagged. Snapshots are copies, never live state.

import type { ChatRequest, ResolvedReply, Usage } from '../core/model.js';

export interface JournalEntry {
  seq: number;
  requestId: string;
  /** Wall-clock arrival time (ISO). Response bytes use the session clock instead. */
  time: string;
  session: string;
  route: string;
  operation: string;
  stream: boolean;
  status: number;
  /** The decoded request; absent when the body could not be decoded. */
  request?: ChatRequest;
  reply?: ResolvedReply;
  error?: { code: string | null; message: string };
  usage?: Usage;
  script?: string;
  step?: string;
  /** How the reply was chosen. */
  source?: 'script' | 'repeat_last' | 'restart' | 'replay' | 'zero_config';
  /** What the entry records: a reply returned or an error returned (its `time` is when the request was received). */
  event: 'reply_returned' | 'error_returned';
  /** Set when the request body was larger than the per-entry limit: `request` is then absent and
   * `requestPreview` holds the first part of the body. */
  truncated?: boolean;
  requestPreview?: string;
  /** For no_match: the nearest scenarios and each predicate that failed. */
  nearMisses?: NearMiss[];
  /** Under `serve --workers`: the worker that answered (0 is the owner of every session's state). */
  worker?: number;
}

export interface NearMiss {
  scenario: string;
  step: string;
  failed: { predicate: string; expected: string; actual: string }[];
}

export interface JournalLimits {
  /** Most entries kept (default 1000). */
  entries: number;
  /** Most bytes kept across entries, estimated from body and reply sizes (default 32 MiB). */
  bytes: number;
  /** Largest request body kept whole in one entry (default 1 MiB); larger ones are truncated. */
  entryBytes: number;
}

export const DEFAULT_JOURNAL_LIMITS: JournalLimits = { entries: 1000, bytes: 32 * 1024 * 1024, entryBytes: 1024 * 1024 };

export interface JournalCounters {
  requests: number;
  matched: number;
  unmatched: number;
  exhausted: number;
  mismatched: number;
  invalid: number;
  errorsReturned: number;
  evicted: number;
}

export function emptyCounters(): JournalCounters {
  return { requests: 0, matched: 0, unmatched: 0, exhausted: 0, mismatched: 0, invalid: 0, errorsReturned: 0, evicted: 0 };
}

/** What the server hands the journal: the request is kept as its body text and decoded only when
 * someone reads the journal, so the hot path does not keep object trees alive. */
export interface JournalRecord extends Omit<JournalEntry, 'seq' | 'time' | 'request' | 'event'> {
  /** Assigned by the journal. */
  seq: number;
  /** Arrival time, milliseconds since the epoch. */
  at: number;
  request?: ChatRequest;
  /** The body as received, decoded by `decodeRequest` only when someone reads the journal. */
  requestText?: string;
  /** What `decodeRequest` needs besides the text (the route's parameters, headers…). */
  decodeContext?: unknown;
  decodeRequest?: (text: string, context: unknown) => ChatRequest | undefined;
  /** Estimated size, set by the journal. */
  bytes: number;
}

const ENTRY_OVERHEAD = 512;

function estimateBytes(record: JournalRecord): number {
  let bytes = ENTRY_OVERHEAD + (record.requestText?.length ?? 0) + (record.requestPreview?.length ?? 0);
  if (record.request) for (const m of record.request.messages) for (const p of m.parts) bytes += 'text' in p ? p.text.length : 64;
  const reply = record.reply;
  if (reply) {
    bytes += reply.content?.length ?? 0;
    for (const call of reply.toolCalls) bytes += call.argumentsText.length + call.name.length;
  }
  if (record.error) bytes += record.error.message.length;
  return bytes;
}

/** A record with every field present from the start, so filling it in never changes its shape. */
export function newRecord(requestId: string, session: string, route: string, operation: string): JournalRecord {
  return {
    seq: 0,
    requestId,
    at: Date.now(),
    session,
    route,
    operation,
    stream: false,
    status: 0,
    request: undefined,
    requestText: undefined,
    decodeContext: undefined,
    decodeRequest: undefined,
    reply: undefined,
    error: undefined,
    usage: undefined,
    script: undefined,
    step: undefined,
    source: undefined,
    truncated: undefined,
    requestPreview: undefined,
    nearMisses: undefined,
    worker: undefined,
    bytes: 0,
  };
}

export class Journal {
  /** Ring buffer of the newest records; `head` is the index of the oldest. */
  private ring: (JournalRecord | undefined)[] = [];
  private head = 0;
  private size = 0;
  private seq = 0;
  private bytes = 0;
  counters: JournalCounters = emptyCounters();
  readonly limits: JournalLimits;

  constructor(limits: Partial<JournalLimits> = {}) {
    this.limits = { ...DEFAULT_JOURNAL_LIMITS, ...limits };
  }

  add(record: JournalRecord): void {
    record.seq = ++this.seq;
    const capacity = this.limits.entries;
    if (capacity <= 0) {
      this.counters.evicted++;
      return;
    }
    if (record.requestText !== undefined && record.requestText.length > this.limits.entryBytes) {
      record.truncated = true;
      record.requestPreview = record.requestText.slice(0, Math.min(this.limits.entryBytes, 4096));
      record.requestText = undefined;
      record.decodeRequest = undefined;
      record.decodeContext = undefined;
    }
    record.bytes = estimateBytes(record);
    if (this.size === capacity) this.evictOldest();
    this.ring[(this.head + this.size) % capacity] = record;
    this.size++;
    this.bytes += record.bytes;
    while (this.bytes > this.limits.bytes && this.size > 1) this.evictOldest();
  }

  private evictOldest(): void {
    const capacity = this.limits.entries;
    const oldest = this.ring[this.head];
    this.ring[this.head] = undefined;
    this.head = (this.head + 1) % capacity;
    this.size--;
    this.bytes -= oldest?.bytes ?? 0;
    this.counters.evicted++;
  }

  /** Entries kept and their estimated bytes. */
  usage(): { entries: number; bytes: number } {
    return { entries: this.size, bytes: this.bytes };
  }

  /** A copy of the retained entries (oldest first) and the counters. */
  snapshot(): { entries: JournalEntry[]; counters: JournalCounters } {
    const entries: JournalEntry[] = [];
    for (let i = 0; i < this.size; i++) {
      const record = this.ring[(this.head + i) % this.limits.entries] as JournalRecord;
      const { at, decodeRequest, decodeContext, requestText, request, bytes: _bytes, ...rest } = record;
      const entry: Record<string, unknown> = { seq: record.seq, time: new Date(at).toISOString() };
      for (const [key, value] of Object.entries(rest)) if (value !== undefined) entry[key] = value;
      entry.event = record.error ? 'error_returned' : 'reply_returned';
      if (record.reply) {
        const { shape: _shape, ...reply } = record.reply;
        entry.reply = reply;
      }
      const decoded = request ?? (requestText !== undefined ? decodeRequest?.(requestText, decodeContext) : undefined);
      if (decoded) entry.request = decoded;
      entries.push(structuredClone(entry) as unknown as JournalEntry);
    }
    return { entries, counters: { ...this.counters } };
  }

  clear(): void {
    this.ring = [];
    this.head = 0;
    this.size = 0;
    this.bytes = 0;
    this.counters = emptyCounters();
  }
}
