// The flags of record mode (docs/record-replay.md) and the record options they make.

import type { RecordOptions } from '../transport/recorder.js';
import { UsageError, type Flag, type Parsed } from './flags.js';

export const RECORD_FLAGS: Flag[] = [
  {
    name: 'record',
    type: 'string',
    value: 'DIR',
    description:
      "Record mode: a request no script answers goes to its provider's --upstream, the answer is relayed as it arrives and written to DIR as a script step (DIR/<session>.yaml), which --fixtures DIR replays (docs/record-replay.md).",
    default: 'off',
  },
  {
    name: 'upstream',
    type: 'string',
    multiple: true,
    value: 'NAME=URL',
    description:
      "A provider's real base URL, as its SDK would be given it (openai=https://api.openai.com/v1, anthropic=https://api.anthropic.com, gemini=https://generativelanguage.googleapis.com); give the flag once per provider. The request's own credentials are forwarded and never written down. Without any, only sessions that name their own upstreams (control API) record.",
    default: 'none',
  },
  {
    name: 'record-mode',
    type: 'string',
    value: 'missing|all',
    description:
      "missing: the recordings already in DIR answer, and only what they do not is sent upstream and added; all: every request goes upstream and each session's file is written afresh.",
    default: 'missing',
  },
  {
    name: 'record-layout',
    type: 'string',
    value: 'session|scenario',
    description: 'session: a file per session, DIR/<session>.yaml; scenario: a file per conversation, DIR/<session>/<scenario>.yaml.',
    default: 'session',
  },
  {
    name: 'record-match',
    type: 'string',
    value: 'conversation|exact',
    description:
      "What a recorded step's when holds: conversation (model, latest user message, the history's tool calls and results in order, a declared tool) or exact (model and the whole history).",
    default: 'conversation',
  },
  {
    name: 'redact',
    type: 'string',
    multiple: true,
    value: 'PATH|/RE/',
    description:
      'Keep this out of the recordings as well: a JSON path of the request body ($.metadata.tenant, $.messages[*].name), or /pattern/flags for any text in the files.',
    default: '$.user, $.metadata.user_id, $.safety_identifier, $.prompt_cache_key',
  },
  {
    name: 'no-default-redactions',
    type: 'boolean',
    description: 'Record the body members --redact leaves out by default (credentials in headers are never recorded).',
    default: 'off',
  },
  {
    name: 'replay',
    type: 'string',
    value: 'DIR',
    description:
      'Each session starts with its own recordings from DIR (DIR/<session>.yaml, or the files under DIR/<session>/), the default session with DIR/default.yaml. --record in mode missing does this with its own DIR.',
    default: 'off',
  },
  {
    name: 'record-timing',
    type: 'boolean',
    description: "Keep each answer's timing as its step's pacing (time to first byte, chunks per second).",
    default: 'off: recordings replay at full speed',
  },
];

/** `--upstream NAME=URL` values (serve's and drift's), each name once, each URL http(s). */
export function upstreamsOf(values: readonly string[]): Record<string, string> {
  const upstreams: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf('=');
    const name = value.slice(0, at);
    const url = value.slice(at + 1);
    if (at < 1 || !/^https?:\/\/[^/]/.test(url)) {
      throw new UsageError(`--upstream must be NAME=URL with an http(s) URL (e.g. openai=https://api.openai.com/v1), got "${value}"`);
    }
    try {
      new URL(url);
    } catch {
      throw new UsageError(`--upstream ${name}: "${url}" is not a URL`);
    }
    if (upstreams[name] !== undefined) throw new UsageError(`--upstream ${name} is given twice`);
    upstreams[name] = url;
  }
  return upstreams;
}

function oneOf<T extends string>(values: Parsed['values'], flag: string, allowed: readonly T[]): T | undefined {
  const raw = values[flag] as string | undefined;
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw)) throw new UsageError(`--${flag} must be ${allowed.join(' or ')}, got "${raw}"`);
  return raw as T;
}

/** The record options the flags give, or undefined when --record is absent. */
export function recordFromFlags(values: Parsed['values'], workers: number): RecordOptions | undefined {
  const dir = values.record as string | undefined;
  const upstreamFlags = (values.upstream as string[] | undefined) ?? [];
  const dependent = ['upstream', 'record-mode', 'record-layout', 'record-match', 'redact', 'no-default-redactions', 'record-timing'];
  if (dir === undefined) {
    const stray = dependent.find((flag) => values[flag] !== undefined);
    if (stray) throw new UsageError(`--${stray} needs --record DIR`);
    return undefined;
  }
  if (dir === '') throw new UsageError('--record needs a directory');
  if (workers > 1) throw new UsageError('--record runs in one process: leave out --workers');
  const upstreams = upstreamsOf(upstreamFlags);
  return {
    dir,
    upstreams,
    mode: oneOf(values, 'record-mode', ['missing', 'all'] as const),
    layout: oneOf(values, 'record-layout', ['session', 'scenario'] as const),
    match: oneOf(values, 'record-match', ['conversation', 'exact'] as const),
    redact: (values.redact as string[] | undefined) ?? [],
    noDefaultRedactions: values['no-default-redactions'] === true,
    timing: values['record-timing'] === true,
  };
}
