// One line per request as it ends, for a person watching `understudy serve` (text) or a machine
// (JSON lines): when, which session and route, the status, and what answered — a scenario's step,
// zero-config (with the scenario it nearly matched), or the reason for an error in one line.
// Off unless asked for: the pipeline then checks one field per request and does nothing else.

import type { JournalRecord } from '../engine/journal.js';

export type RequestLogFormat = 'text' | 'json';

export interface RequestLogOptions {
  format?: RequestLogFormat;
  /** Where each line goes (default: standard output), without its newline. */
  write?: (line: string) => void;
}

export type RequestLogger = (entry: JournalRecord) => void;

/** Longest reason kept on a text line. */
const REASON_CHARS = 240;

export function requestLogger(option: RequestLogFormat | RequestLogOptions | undefined): RequestLogger | undefined {
  if (option === undefined) return undefined;
  const { format = 'text', write = (line: string) => void process.stdout.write(`${line}\n`) } =
    typeof option === 'string' ? { format: option } : option;
  return format === 'json' ? (entry) => write(JSON.stringify(jsonLine(entry))) : (entry) => write(textLine(entry));
}

export function textLine(entry: JournalRecord): string {
  const time = new Date(entry.at).toISOString().slice(11, 23);
  return `${time}  ${entry.session}  ${entry.route}  ${entry.status}  ${whatAnswered(entry)}  ${Date.now() - entry.at} ms`;
}

function whatAnswered(entry: JournalRecord): string {
  if (entry.error) {
    const label = entry.status === 499 ? 'aborted' : (entry.error.code ?? 'error');
    return `${label}: ${oneLine(entry.error.message)}`;
  }
  if (entry.source === 'zero_config') {
    const miss = entry.nearMisses?.[0];
    if (!miss) return 'zero-config';
    const failed = miss.failed[0];
    const why = failed ? `: ${failed.predicate} expected ${failed.expected}, got ${failed.actual}` : '';
    return oneLine(`zero-config (near miss: scenario "${miss.scenario}" step "${miss.step}"${why})`);
  }
  const how = entry.source && entry.source !== 'script' ? ` (${entry.source})` : '';
  return entry.script ? `scenario "${entry.script}" step "${entry.step}"${how}` : 'answered';
}

function oneLine(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ');
  return flat.length > REASON_CHARS ? `${flat.slice(0, REASON_CHARS - 1)}…` : flat;
}

function jsonLine(entry: JournalRecord) {
  return {
    time: new Date(entry.at).toISOString(),
    requestId: entry.requestId,
    session: entry.session,
    route: entry.route,
    status: entry.status,
    ms: Date.now() - entry.at,
    ...(entry.script !== undefined && { scenario: entry.script, step: entry.step }),
    ...(entry.source !== undefined && { source: entry.source }),
    ...(entry.error && { error: entry.error }),
    ...(entry.nearMisses?.length && { nearMisses: entry.nearMisses }),
    ...(entry.worker !== undefined && { worker: entry.worker }),
  };
}
