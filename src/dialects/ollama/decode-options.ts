// The members a chat and a generate request share besides their prompt: `format`, `options`,
// `keep_alive`, `think`, `stream`, `top_logprobs` and the boolean switches. Each is checked as
// the server reads it (Go's decoder for types, the handlers' rules for values); `options` names
// it does not know are ignored, as the server ignores them.

import type { OutputFormat } from '../../core/model.js';
import { given, isObject } from '../wire-kit/values.js';
import { reject } from '../wire-kit/wire-error.js';
import { expectBoolean, expectInteger, goPath, refusal, rule, typeError, type GoField } from './wording.js';

export interface SharedMembers {
  output: OutputFormat;
  stream: boolean;
  /** `think` as sent: false turns the reply's thinking off; absent or anything else leaves it on. */
  think: boolean | string | undefined;
  maxOutputTokens: number | undefined;
}

const field = (struct: string, path: string): GoField => ({ struct, path, at: path });

const INTEGER_OPTIONS = new Set([
  'num_ctx',
  'num_batch',
  'num_gpu',
  'main_gpu',
  'num_thread',
  'draft_num_predict',
  'num_keep',
  'seed',
  'num_predict',
  'top_k',
  'repeat_last_n',
]);
const FLOAT_OPTIONS = new Set(['top_p', 'min_p', 'typical_p', 'temperature', 'repeat_penalty', 'presence_penalty', 'frequency_penalty']);

/** `options`: a map of model options; each known one must have its type (the server's words). */
function checkOptions(raw: unknown, struct: string): number | undefined {
  if (!given(raw)) return undefined;
  if (!isObject(raw)) reject(typeError(field(struct, 'options'), raw, 'map[string]interface {}'));
  let maxOutputTokens: number | undefined;
  for (const key in raw) {
    const value = raw[key];
    if (value === null) continue;
    const at = `options.${key}`;
    if (INTEGER_OPTIONS.has(key)) {
      if (typeof value !== 'number') rule(`option "${key}" must be of type integer`, at);
      if (key === 'num_predict' && value > 0) maxOutputTokens = Math.trunc(value);
    } else if (FLOAT_OPTIONS.has(key)) {
      if (typeof value !== 'number') rule(`option "${key}" must be of type float32`, at);
    } else if (key === 'use_mmap') {
      if (typeof value !== 'boolean') rule(`option "${key}" must be of type boolean`, at);
    } else if (key === 'stop') {
      if (!Array.isArray(value)) rule(`option "${key}" must be of type array`, at);
      if (value.some((item) => typeof item !== 'string')) rule(`option "${key}" must be of an array of strings`, at);
    }
  }
  return maxOutputTokens;
}

const DURATION_UNITS = new Set(['ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h']);

/** Go's time.ParseDuration, for its verdict only: the value is not used. */
function checkDuration(text: string): void {
  const quoted = JSON.stringify(text);
  let rest = text.replace(/^[+-]/, '');
  if (rest === '0') return;
  if (rest === '') rule(`time: invalid duration ${quoted}`, 'keep_alive');
  while (rest !== '') {
    const number = /^(\d*)(\.\d*)?/.exec(rest);
    if (!number || number[0] === '' || number[0] === '.') rule(`time: invalid duration ${quoted}`, 'keep_alive');
    rest = rest.slice(number[0].length);
    const unit = /^[^\d.]*/.exec(rest)?.[0] ?? '';
    if (unit === '') rule(`time: missing unit in duration ${quoted}`, 'keep_alive');
    if (!DURATION_UNITS.has(unit)) rule(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`, 'keep_alive');
    rest = rest.slice(unit.length);
  }
}

/** `keep_alive`: seconds as a number, or a Go duration string ("5m", "1h30m", "-1"). */
function checkKeepAlive(raw: unknown): void {
  if (!given(raw) || typeof raw === 'number') return;
  if (typeof raw === 'string') return checkDuration(raw);
  const goType = Array.isArray(raw) ? '[]interface {}' : typeof raw === 'boolean' ? 'bool' : 'map[string]interface {}';
  rule(`Unsupported type: '${goType}'`, 'keep_alive');
}

const THINK_LEVELS = new Set(['high', 'medium', 'low', 'max']);

function checkThink(raw: unknown): boolean | string | undefined {
  if (!given(raw)) return undefined;
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'string') {
    if (!THINK_LEVELS.has(raw))
      rule(`invalid think value: ${JSON.stringify(raw)} (must be "high", "medium", "low", "max", true, or false)`, 'think');
    return raw;
  }
  rule('think must be a boolean or string ("high", "medium", "low", "max", true, or false)', 'think');
}

/** `format`: "json", a JSON Schema object, or nothing ("" and null). */
function decodeFormat(raw: unknown): OutputFormat {
  if (raw === undefined || raw === null || raw === '') return { type: 'text' };
  if (raw === 'json') return { type: 'json_object' };
  if (isObject(raw)) return { type: 'json_schema', schema: raw };
  const sent = JSON.stringify(raw);
  reject(refusal(`invalid format: ${JSON.stringify(sent)}; expected "json" or a valid JSON Schema object`, 'format'));
}

export function decodeSharedMembers(body: Record<string, unknown>, struct: 'ChatRequest' | 'GenerateRequest'): SharedMembers {
  const stream = given(body.stream) ? expectBoolean(body.stream, goPath(field(struct, 'stream'))) : true;
  for (const name of ['truncate', 'shift', 'logprobs', '_debug_render_only']) {
    if (given(body[name])) expectBoolean(body[name], goPath(field(struct, name)));
  }
  if (given(body.top_logprobs)) {
    const top = expectInteger(body.top_logprobs, goPath(field(struct, 'top_logprobs')));
    if (top < 0 || top > 20) rule('top_logprobs must be between 0 and 20', 'top_logprobs');
  }
  checkKeepAlive(body.keep_alive);
  const think = checkThink(body.think);
  const output = decodeFormat(body.format);
  const maxOutputTokens = checkOptions(body.options, struct);
  return { output, stream, think, maxOutputTokens };
}
