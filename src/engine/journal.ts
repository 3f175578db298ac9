// A session's record of what happened, bounded by entry count and by bytes; the oldest entries
// are evicted first, counters keep counting after eviction, and an entry too large to keep whole
// is kept truncated and flagged. Snapshots are copies, never live state.

import type { ChatRequest, Pacing, ResolvedReply, Usage } from '../core/model.js';
import type { JournalFeed } from './journal-feed.js';

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
  source?: 'script' | 'repeat_last' | 'restart' | 'replay' | 'zero_config' | 'upstream';
  /** What the entry records: a reply returned, an error returned, or a request its client gave up
   * on before the answer was delivered (status 499, nothing consumed). Its `time` is when the
   * request was received. */
  event: 'reply_returned' | 'error_returned' | 'request_aborted';
  /** Set when the request body was larger than the per-entry limit: `request` is then absent and
   * `requestPreview` holds the first part of the body. */
  truncated?: boolean;
  requestPreview?: string;
  /** For no_match: the nearest scenarios and each predicate that failed; for a zero-config answer
   * (source zero_config): the scenarios the request nearly matched (see select.ts nearMissesOf). */
  nearMisses?: NearMiss[];
  /** Under `serve --workers`: the worker that answered (0 is the owner of every session's state). */
  worker?: number;
  /** Milliseconds from arrival to the entry being journalled (the answer written, or refused). */
  ms?: number;
  /** Milliseconds from arrival to the first byte of the answer handed to the socket. */
  firstByteMs?: number;
  /** The fault the answer played (scripted or injected), in words: `close after 2 chunks`. */
  fault?: string;
  /** The pacing the answer was written with. */
  pacing?: Pacing;
}

/** The status an aborted request is journalled with (as proxies log a client that closed first). */
export const ABORTED_STATUS = 499;

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
  /** Requests whose client left before the answer was delivered. */
  aborted: number;
  evicted: number;
  /** Zero-config answers to requests that nearly matched a scenario. */
  nearMisses: number;
}

export function emptyCounters(): JournalCounters {
  return {
    requests: 0,
    matched: 0,
    unmatched: 0,
    exhausted: 0,
    mismatched: 0,
    invalid: 0,
    errorsReturned: 0,
    aborted: 0,
    evicted: 0,
    nearMisses: 0,
  };
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
  /** When the session made requestId from a number (Session.requestIdOf): that number, which the
   * journal keeps instead of the string. */
  idNumber: number | undefined;
  /** The answer's body as written, kept only when the server keeps response bodies
   * (ServerOptions.journalBodies). */
  responseText: string | undefined;
}

const ENTRY_OVERHEAD = 512;

/** A string of its own characters (no reference to the string it was sliced from). */
function ownCopy(text: string): string {
  return text.split('').join('');
}

function estimateBytes(record: JournalRecord): number {
  let bytes = ENTRY_OVERHEAD + (record.requestText?.length ?? 0) + (record.requestPreview?.length ?? 0);
  if (record.request) for (const m of record.request.messages) for (const p of m.parts) bytes += 'text' in p ? p.text.length : 64;
  const reply = record.reply;
  if (reply) {
    bytes += reply.content?.length ?? 0;
    for (const call of reply.toolCalls) bytes += call.argumentsText.length + call.name.length;
  }
  if (record.error) bytes += record.error.message.length;
  if (record.responseText !== undefined) bytes += record.responseText.length;
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
    idNumber: undefined,
    ms: undefined,
    firstByteMs: undefined,
    fault: undefined,
    pacing: undefined,
    responseText: undefined,
  };
}
// Every record field is either one of the ring's columns or compared by sameShared; a field added
// to JournalRecord and to neither fails to compile here.
type ColumnField =
  'seq' | 'requestId' | 'idNumber' | 'at' | 'status' | 'stream' | 'requestText' | 'bytes' | 'ms' | 'firstByteMs' | 'responseText';
type SharedField =
  | 'session'
  | 'route'
  | 'operation'
  | 'request'
  | 'decodeContext'
  | 'decodeRequest'
  | 'error'
  | 'script'
  | 'step'
  | 'source'
  | 'truncated'
  | 'requestPreview'
  | 'nearMisses'
  | 'worker'
  | 'reply'
  | 'usage'
  | 'fault'
  | 'pacing';
const everyFieldKept: Exclude<keyof JournalRecord, ColumnField | SharedField> extends never ? true : never = true;
void everyFieldKept;

/** Whether two records agree on everything but the per-request scalars and strings the ring
 * keeps in its own columns (written out field by field: a loop over field names would make every
 * read a megamorphic keyed load, which showed in profiles). */
function sameShared(a: JournalRecord, b: JournalRecord): boolean {
  return (
    a.session === b.session &&
    a.route === b.route &&
    a.operation === b.operation &&
    a.request === b.request &&
    a.decodeContext === b.decodeContext &&
    a.decodeRequest === b.decodeRequest &&
    a.error === b.error &&
    a.script === b.script &&
    a.step === b.step &&
    a.source === b.source &&
    a.truncated === b.truncated &&
    a.requestPreview === b.requestPreview &&
    a.nearMisses === b.nearMisses &&
    a.worker === b.worker &&
    a.fault === b.fault &&
    a.pacing === b.pacing &&
    sameReply(a.reply, b.reply) &&
    sameUsage(a.usage, b.usage)
  );
}

/** Each request resolves its own reply object; two resolutions of one scripted reply (same
 * `shape`) with the same usage are the same reply. */
function sameReply(a: ResolvedReply | undefined, b: ResolvedReply | undefined): boolean {
  if (a === b) return true;
  return a !== undefined && b !== undefined && a.shape !== undefined && a.shape === b.shape && sameUsage(a.usage, b.usage);
}

function sameUsage(a: Usage | undefined, b: Usage | undefined): boolean {
  if (a === b) return true;
  return (
    a !== undefined &&
    b !== undefined &&
    a.inputTokens === b.inputTokens &&
    a.outputTokens === b.outputTokens &&
    a.cachedInputTokens === b.cachedInputTokens &&
    a.reasoningTokens === b.reasoningTokens &&
    a.cacheWriteTokens === b.cacheWriteTokens
  );
}

/**
 * A ring of the newest records, `head` the slot of the oldest. What differs per request (sequence,
 * id, arrival time, status, body text, size) sits in columns; everything else is read from a
 * record kept in `shared`, and consecutive records that agree on all of it (a load test's
 * thousandth identical request) share one. So a kept entry holds no object of its own but its body
 * text (and not even that when the server's decode memo hands it the text it already kept), which
 * matters because entries outlive the young generation's collections and every object they hold
 * is copied by each one.
 */
export class Journal {
  private shared: (JournalRecord | undefined)[] = [];
  private seqs: number[] = [];
  private times: number[] = [];
  private sizes: number[] = [];
  /** Status, plus STREAM_FLAG when the answer was a stream. */
  private codes: number[] = [];
  /** The request id, or the number the session makes it from: a number costs the young
   * generation nothing to keep. */
  private ids: (string | number)[] = [];
  private texts: (string | undefined)[] = [];
  /** Milliseconds to the journal and to the first byte; -1 when not known. */
  private durations: number[] = [];
  private firstBytes: number[] = [];
  private responses: (string | undefined)[] = [];
  private lastShared: JournalRecord | undefined;
  private head = 0;
  private size = 0;
  private seq = 0;
  private bytes = 0;
  counters: JournalCounters = emptyCounters();
  readonly limits: JournalLimits;
  /** Where added entries are announced while anyone listens (the control API's live feed). */
  feed: JournalFeed | undefined;

  constructor(
    limits: Partial<JournalLimits> = {},
    private readonly requestIdOf?: (n: number) => string,
  ) {
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
      // A copy, not a slice: V8's slice of a long string keeps the whole body alive beneath it.
      record.requestPreview = ownCopy(record.requestText.slice(0, Math.min(this.limits.entryBytes, 4096)));
      record.requestText = undefined;
      record.decodeRequest = undefined;
      record.decodeContext = undefined;
    }
    if (record.responseText !== undefined && record.responseText.length > this.limits.entryBytes) {
      record.responseText = ownCopy(record.responseText.slice(0, Math.min(this.limits.entryBytes, 4096)));
    }
    record.bytes = estimateBytes(record);
    if (this.size === capacity) this.evictOldest();
    const slot = (this.head + this.size) % capacity;
    const last = this.lastShared;
    const shared = last !== undefined && sameShared(last, record) ? last : (this.lastShared = record);
    this.put(slot, shared, record);
    this.size++;
    this.bytes += record.bytes;
    while (this.bytes > this.limits.bytes && this.size > 1) this.evictOldest();
    const feed = this.feed;
    if (feed !== undefined && feed.listening) feed.added(record);
  }

  private put(slot: number, shared: JournalRecord | undefined, record: JournalRecord): void {
    const code = record.status + (record.stream ? STREAM_FLAG : 0);
    const id = record.idNumber !== undefined && record.idNumber >= 0 && this.requestIdOf ? record.idNumber : record.requestId;
    if (slot === this.ids.length) {
      this.shared.push(shared);
      this.seqs.push(record.seq);
      this.times.push(record.at);
      this.sizes.push(record.bytes);
      this.codes.push(code);
      this.ids.push(id);
      this.texts.push(record.requestText);
      this.durations.push(record.ms ?? -1);
      this.firstBytes.push(record.firstByteMs ?? -1);
      this.responses.push(record.responseText);
      return;
    }
    this.shared[slot] = shared;
    this.seqs[slot] = record.seq;
    this.times[slot] = record.at;
    this.sizes[slot] = record.bytes;
    this.codes[slot] = code;
    this.ids[slot] = id;
    this.texts[slot] = record.requestText;
    this.durations[slot] = record.ms ?? -1;
    this.firstBytes[slot] = record.firstByteMs ?? -1;
    this.responses[slot] = record.responseText;
  }

  private evictOldest(): void {
    const slot = this.head;
    this.bytes -= this.sizes[slot] ?? 0;
    this.shared[slot] = undefined;
    this.ids[slot] = '';
    this.texts[slot] = undefined;
    this.responses[slot] = undefined;
    this.head = (slot + 1) % this.limits.entries;
    this.size--;
    this.counters.evicted++;
  }

  /** The record kept in a slot, whole again. */
  private recordAt(slot: number): JournalRecord {
    const code = this.codes[slot] as number;
    const id = this.ids[slot] as string | number;
    const ms = this.durations[slot] as number;
    const firstByteMs = this.firstBytes[slot] as number;
    return {
      ...(this.shared[slot] as JournalRecord),
      seq: this.seqs[slot] as number,
      requestId: typeof id === 'number' ? this.requestIdOf!(id) : id,
      idNumber: undefined,
      at: this.times[slot] as number,
      status: code & ~STREAM_FLAG,
      stream: (code & STREAM_FLAG) !== 0,
      requestText: this.texts[slot],
      bytes: this.sizes[slot] as number,
      ms: ms < 0 ? undefined : ms,
      firstByteMs: firstByteMs < 0 ? undefined : firstByteMs,
      responseText: this.responses[slot],
    };
  }

  /** Entries kept and their estimated bytes. */
  usage(): { entries: number; bytes: number } {
    return { entries: this.size, bytes: this.bytes };
  }

  /** A copy of the retained entries (oldest first) and the counters. */
  snapshot(): { entries: JournalEntry[]; counters: JournalCounters } {
    const entries: JournalEntry[] = [];
    for (let i = 0; i < this.size; i++) entries.push(entryOf(this.recordAt((this.head + i) % this.limits.entries)));
    return { entries, counters: { ...this.counters } };
  }

  /** The newest `most` retained records (all by default), oldest first, as kept (not decoded, not copied). */
  records(most = this.size): JournalRecord[] {
    const out: JournalRecord[] = [];
    for (let i = Math.max(0, this.size - most); i < this.size; i++) out.push(this.recordAt((this.head + i) % this.limits.entries));
    return out;
  }

  /** One retained entry by its sequence number, with the wire bodies kept for it. */
  entry(seq: number): { entry: JournalEntry; requestText?: string; requestPreview?: string; responseText?: string } | undefined {
    if (this.size === 0 || !Number.isSafeInteger(seq)) return undefined;
    const oldest = this.seqs[this.head] as number;
    if (seq < oldest || seq >= oldest + this.size) return undefined;
    const record = this.recordAt((this.head + (seq - oldest)) % this.limits.entries);
    return {
      entry: entryOf(record),
      requestText: record.requestText,
      requestPreview: record.requestPreview,
      responseText: record.responseText,
    };
  }

  clear(): void {
    this.shared = [];
    this.seqs = [];
    this.times = [];
    this.sizes = [];
    this.codes = [];
    this.ids = [];
    this.texts = [];
    this.durations = [];
    this.firstBytes = [];
    this.responses = [];
    this.lastShared = undefined;
    this.head = 0;
    this.size = 0;
    this.bytes = 0;
    this.counters = emptyCounters();
  }
}

const STREAM_FLAG = 0x10000;

/** A kept record as the control API shows it: decoded, copied, without the journal's own fields. */
function entryOf(record: JournalRecord): JournalEntry {
  const { at, decodeRequest, decodeContext, requestText, request, bytes: _bytes, responseText: _response, ...rest } = record;
  const entry: Record<string, unknown> = { seq: record.seq, time: new Date(at).toISOString() };
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) entry[key] = value;
  entry.event = journalEvent(record);
  if (record.reply) {
    const { shape: _shape, ...reply } = record.reply;
    entry.reply = reply;
  }
  const decoded = request ?? (requestText !== undefined ? decodeRequest?.(requestText, decodeContext) : undefined);
  if (decoded) entry.request = decoded;
  return structuredClone(entry) as unknown as JournalEntry;
}

export function journalEvent(record: Pick<JournalRecord, 'status' | 'error'>): JournalEntry['event'] {
  return record.status === ABORTED_STATUS ? 'request_aborted' : record.error ? 'error_returned' : 'reply_returned';
}
