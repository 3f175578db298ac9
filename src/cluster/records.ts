// What an edge worker sends the owner about the requests it answered itself: per session, the
// counters and step uses that changed, and the newest journal records. Only the newest
// `journalLimit` records of a batch are sent, since older ones would be evicted on arrival anyway;
// the ones left out are counted as evicted.

import type { ChatRequest, ResolvedReply, Usage } from '../core/model.js';
import type { JournalCounters, JournalRecord } from '../engine/journal.js';
import { reserve, type Script } from '../engine/script.js';
import type { Session } from '../engine/session.js';
import { resolveStatic } from '../engine/resolve.js';

/** A journal record in a form that survives JSON: no functions, no shared reply parts. */
export interface PortableRecord {
  requestId: string;
  at: number;
  route: string;
  operation: string;
  stream: boolean;
  status: number;
  requestText?: string;
  /** The journal's decode context, with the query as text and the session's zero-config mode as it
   * was when the request arrived (the owner decodes the record later, maybe after it changed). */
  wire?: {
    operation: string;
    params: Record<string, string>;
    query: string;
    headers: Record<string, string | string[] | undefined>;
    zeroConfig: boolean;
  };
  /** A reply the owner cannot rebuild from its own copy of the step. */
  reply?: Omit<ResolvedReply, 'shape'>;
  /** With `script`/`step`: the step's scripted reply with this usage. */
  usage?: Usage;
  error?: { code: string | null; message: string };
  script?: string;
  step?: string;
  source?: JournalRecord['source'];
  truncated?: boolean;
  requestPreview?: string;
  nearMisses?: JournalRecord['nearMisses'];
  /** The request carried tool results (the owner records them against its tool-call ledger). */
  toolResults?: boolean;
  worker: number;
  ms?: number;
  firstByteMs?: number;
  fault?: string;
  pacing?: JournalRecord['pacing'];
  responseText?: string;
}

export interface SessionBatch {
  session: string;
  generation: number;
  counters: Partial<JournalCounters>;
  /** [script name, step index, times used] since the last batch. */
  used: [string, number, number][];
  records: PortableRecord[];
}

type DecodeContext = {
  operation: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: never;
  state: { zeroConfig?: () => boolean };
};

// The server reuses one decode context while requests repeat it; so can its portable form, which
// spares an edge an object and a query string per record it keeps until delivery.
const portableWires = new WeakMap<DecodeContext, NonNullable<PortableRecord['wire']>>();

function portableWire(wire: DecodeContext): NonNullable<PortableRecord['wire']> {
  let portable = portableWires.get(wire);
  if (!portable) {
    portable = {
      operation: wire.operation,
      params: wire.params,
      query: wire.query.toString(),
      headers: wire.headers,
      zeroConfig: wire.state.zeroConfig?.() ?? false,
    };
    portableWires.set(wire, portable);
  }
  return portable;
}

export function portableRecord(record: JournalRecord, worker: number, request?: ChatRequest): PortableRecord {
  const out: PortableRecord = {
    requestId: record.requestId,
    at: record.at,
    route: record.route,
    operation: record.operation,
    stream: record.stream,
    status: record.status,
    worker,
  };
  if (record.requestText !== undefined) out.requestText = record.requestText;
  const wire = record.decodeContext as DecodeContext | undefined;
  if (wire) out.wire = portableWire(wire);
  const reply = record.reply;
  if (reply && reply.shape && record.script !== undefined) {
    out.usage = reply.usage;
  } else if (reply) {
    const { shape: _shape, ...rest } = reply;
    out.reply = rest;
  }
  if (record.usage && !reply) out.usage = record.usage;
  if (record.error) out.error = record.error;
  if (record.script !== undefined) out.script = record.script;
  if (record.step !== undefined) out.step = record.step;
  if (record.source !== undefined) out.source = record.source;
  if (record.truncated) out.truncated = true;
  if (record.requestPreview !== undefined) out.requestPreview = record.requestPreview;
  if (record.nearMisses) out.nearMisses = record.nearMisses;
  if (record.ms !== undefined) out.ms = record.ms;
  if (record.firstByteMs !== undefined) out.firstByteMs = record.firstByteMs;
  if (record.fault !== undefined) out.fault = record.fault;
  if (record.pacing !== undefined) out.pacing = record.pacing;
  if (record.responseText !== undefined) out.responseText = record.responseText;
  if (request?.messages.some((m) => m.parts.some((p) => p.type === 'tool_result'))) out.toolResults = true;
  return out;
}

/** The owner's side: folds a batch into the session as if it had answered those requests. */
export function applyBatch(
  session: Session,
  batch: SessionBatch,
  decode: (text: string, wire: NonNullable<PortableRecord['wire']>) => { context: unknown; decode: JournalRecord['decodeRequest'] },
): void {
  if (batch.generation !== session.generation) return;
  const scripts = new Map(session.scripts.map((s) => [s.name, s]));
  const counters = session.journal.counters;
  for (const [key, delta] of Object.entries(batch.counters) as [keyof JournalCounters, number][]) counters[key] += delta;
  const firstUse = new Set<string>();
  for (const [name, index, times] of batch.used) {
    const script = scripts.get(name);
    const step = script?.steps[index];
    if (!script || !step) continue;
    if (script.replies === 0) firstUse.add(name);
    for (let i = 0; i < times; i++) reserve(script, step, script.candidates.includes(index) ? 'script' : repeatMode(script)).commit();
  }
  for (const portable of batch.records) {
    const record = toRecord(session, scripts, portable, decode);
    // Edges see their own first use; only the session's first use of a script is "script".
    if (record.source === 'script' && record.script !== undefined) {
      if (firstUse.has(record.script)) firstUse.delete(record.script);
      else record.source = repeatMode(scripts.get(record.script) ?? { exhausted: 'repeat_last' });
    }
    session.journal.add(record);
    // As the engine records them (exchange.ts): the results of an answered request, then its calls.
    if (portable.status === 200 && portable.toolResults && record.requestText !== undefined) {
      const request = record.decodeRequest?.(record.requestText, record.decodeContext);
      if (request) session.toolLedger.recordResults(request, record.requestId);
    }
    if (portable.status === 200 && record.reply && record.reply.toolCalls.length > 0)
      session.toolLedger.recordCalls(record.reply, record.requestId);
  }
}

function repeatMode(script: { exhausted: string }): 'restart' | 'repeat_last' {
  return script.exhausted === 'restart' ? 'restart' : 'repeat_last';
}

function toRecord(
  session: Session,
  scripts: Map<string, Script>,
  p: PortableRecord,
  decode: (text: string, wire: NonNullable<PortableRecord['wire']>) => { context: unknown; decode: JournalRecord['decodeRequest'] },
): JournalRecord {
  let reply: ResolvedReply | undefined;
  if (p.reply) {
    reply = { ...p.reply, shape: undefined };
  } else if (p.usage && p.script !== undefined && p.status === 200) {
    const step = scripts.get(p.script)?.steps.find((s) => s.id === p.step);
    reply = step ? resolveStatic(step.reply, p.stream, p.usage) : undefined;
  }
  const decoded = p.requestText !== undefined && p.wire ? decode(p.requestText, p.wire) : undefined;
  return {
    seq: 0,
    requestId: p.requestId,
    at: p.at,
    session: session.id,
    route: p.route,
    operation: p.operation,
    stream: p.stream,
    status: p.status,
    request: undefined,
    requestText: p.requestText,
    decodeContext: decoded?.context,
    decodeRequest: decoded?.decode,
    reply,
    error: p.error,
    usage: reply?.usage ?? p.usage,
    script: p.script,
    step: p.step,
    source: p.source,
    truncated: p.truncated,
    requestPreview: p.requestPreview,
    nearMisses: p.nearMisses,
    ms: p.ms,
    firstByteMs: p.firstByteMs,
    fault: p.fault,
    pacing: p.pacing,
    responseText: p.responseText,
    bytes: 0,
    worker: p.worker,
    idNumber: undefined,
  };
}
