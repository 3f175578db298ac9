// Anthropic's `GET /v1/models` and `GET /v1/models/{model_id}` from the session's model list
// (wire-kit/model-list.ts): `{data:[ModelInfo], has_more, first_id, last_id}` paged by `limit`
// (1 to 1000, default 20), `after_id` and `before_id` as the SDK's Page follows them; with a
// strict catalogue another id is Anthropic's 404. Understudy knows a model's id, not its card:
// `display_name` is made from the id, `created_at` is the session clock, `capabilities` and the
// other facts of the card are null, the token limits the dialect's.

import type { NeutralError } from '../../core/errors.js';
import type { EncodedBody, InfoAsk } from '../dialect.js';
import { modelList } from '../wire-kit/model-list.js';
import { ANTHROPIC_DEFAULT_MODELS, unknownAnthropicModel } from './catalogue.js';
import { MAX_OUTPUT_TOKENS } from './decode-options.js';
import { encodeAnthropicError } from './errors.js';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1000;
const MAX_INPUT_TOKENS = 200_000;
const LINES = ['haiku', 'sonnet', 'opus'];

/** `claude-sonnet-4-6` → `Claude Sonnet 4.6` (a trailing date is left out). */
export function displayName(id: string): string {
  const words: string[] = [];
  let version: string[] = [];
  for (const part of id.split('-')) {
    if (/^\d{1,3}$/.test(part)) {
      version.push(part);
      continue;
    }
    if (version.length > 0) words.push(version.join('.'));
    version = [];
    if (/^\d{8}$/.test(part)) continue;
    words.push(part.charAt(0).toUpperCase() + part.slice(1));
  }
  if (version.length > 0) words.push(version.join('.'));
  return words.join(' ');
}

function modelJson(id: string, clock: number): string {
  const line = LINES.find((name) => id.includes(name));
  return JSON.stringify({
    type: 'model',
    id,
    display_name: displayName(id),
    created_at: new Date(clock * 1000).toISOString().replace('.000Z', 'Z'),
    capabilities: null,
    deprecated_at: null,
    lifecycle: 'active',
    line: line ?? null,
    max_input_tokens: MAX_INPUT_TOKENS,
    max_tokens: MAX_OUTPUT_TOKENS,
    retires_at: null,
  });
}

function refused(ask: InfoAsk, error: NeutralError): EncodedBody {
  return encodeAnthropicError(error, { requestId: ask.requestId ?? '' });
}

function invalid(message: string): NeutralError {
  return { kind: 'invalid_request', status: 400, code: null, message };
}

function ok(ask: InfoAsk, body: string): EncodedBody {
  return { status: 200, headers: { 'content-type': 'application/json', 'request-id': ask.requestId ?? '' }, body };
}

function limitOf(query: URLSearchParams | undefined): number | NeutralError {
  const raw = query?.get('limit');
  if (raw === null || raw === undefined) return DEFAULT_LIMIT;
  if (!/^-?\d+$/.test(raw)) return invalid('limit: Input should be a valid integer, unable to parse string as an integer');
  const limit = Number(raw);
  if (limit < 1) return invalid('limit: Input should be greater than or equal to 1');
  if (limit > MAX_LIMIT) return invalid(`limit: Input should be less than or equal to ${MAX_LIMIT}`);
  return limit;
}

export function listAnthropicModels(ask: InfoAsk): EncodedBody {
  const { ids } = modelList(ask.state, ANTHROPIC_DEFAULT_MODELS);
  const limit = limitOf(ask.query);
  if (typeof limit !== 'number') return refused(ask, limit);
  const after = ask.query?.get('after_id') ?? undefined;
  const before = ask.query?.get('before_id') ?? undefined;
  if (after !== undefined && before !== undefined) return refused(ask, invalid('Only one of before_id and after_id may be given.'));
  const cursor = after ?? before;
  const at = cursor === undefined ? -1 : ids.indexOf(cursor);
  // Understudy's choice: a cursor the list does not hold is a 400 naming it, not an empty page.
  if (cursor !== undefined && at < 0)
    return refused(ask, invalid(`${after !== undefined ? 'after_id' : 'before_id'}: no model with id ${cursor}`));
  let start = 0;
  let end = Math.min(ids.length, limit);
  if (after !== undefined) [start, end] = [at + 1, Math.min(ids.length, at + 1 + limit)];
  if (before !== undefined) [start, end] = [Math.max(0, at - limit), at];
  const page = ids.slice(start, end);
  const hasMore = before !== undefined ? start > 0 : end < ids.length;
  const data = page.map((id) => modelJson(id, ask.clock)).join(',');
  const first = JSON.stringify(page[0] ?? null);
  const last = JSON.stringify(page[page.length - 1] ?? null);
  return ok(ask, `{"data":[${data}],"has_more":${hasMore},"first_id":${first},"last_id":${last}}`);
}

export function getAnthropicModel(ask: InfoAsk): EncodedBody {
  const id = ask.params?.model ?? '';
  const unknown = unknownAnthropicModel(ask.state, id);
  return unknown ? refused(ask, unknown) : ok(ask, modelJson(id, ask.clock));
}
