// A session's record of what happened, bounded by entry count; counters keep counting after the
// oldest entries are evicted. Snapshots are copies, never live state.

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
  source?: 'script' | 'repeat_last' | 'restart' | 'zero_config';
}

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
export interface JournalRecord extends Omit<JournalEntry, 'seq' | 'time' | 'request'> {
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
  };
}

type StoredRecord = JournalRecord;

export class Journal {
  /** Ring buffer of the newest records; `head` is the index of the oldest. */
  private ring: (StoredRecord | undefined)[] = [];
  private head = 0;
  private size = 0;
  private seq = 0;
  counters: JournalCounters = emptyCounters();

  constructor(private readonly maxEntries: number) {}

  add(record: JournalRecord): void {
    const stored = record;
    stored.seq = ++this.seq;
    if (this.maxEntries <= 0) {
      this.counters.evicted++;
      return;
    }
    if (this.size < this.maxEntries) {
      this.ring[(this.head + this.size) % this.maxEntries] = stored;
      this.size++;
      return;
    }
    this.ring[this.head] = stored;
    this.head = (this.head + 1) % this.maxEntries;
    this.counters.evicted++;
  }

  /** A copy of the retained entries (oldest first) and the counters. */
  snapshot(): { entries: JournalEntry[]; counters: JournalCounters } {
    const entries: JournalEntry[] = [];
    for (let i = 0; i < this.size; i++) {
      const record = this.ring[(this.head + i) % this.maxEntries] as StoredRecord;
      const { at, decodeRequest, decodeContext, requestText, request, ...rest } = record;
      const entry: Record<string, unknown> = { seq: record.seq, time: new Date(at).toISOString() };
      for (const [key, value] of Object.entries(rest)) if (value !== undefined) entry[key] = value;
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
    this.counters = emptyCounters();
  }
}
