// The request's options: output format, thinking, sampling, the output token limit, and the beta
// options that change nothing in a scripted answer (type-checked only).

import type { OutputFormat } from '../../core/model.js';
import { VERSION_2026 } from './api-version.js';
import { checkSchema } from './decode-tools.js';
import { given } from '../wire-kit/values.js';
import {
  expectArray,
  expectEnum,
  expectInteger,
  expectLength,
  expectNumber,
  expectObject,
  expectString,
  fail,
  requiredMember,
  tag,
} from './wording.js';

/** The largest `max_tokens` any current model takes; the API's own limit is the model's. */
export const MAX_OUTPUT_TOKENS = 128_000;

export function decodeOutput(body: Record<string, unknown>): OutputFormat {
  let format: unknown;
  let path = 'output_config.format';
  if (given(body.output_config)) {
    const config = expectObject(body.output_config, 'output_config');
    if (given(config.effort)) expectEnum(config.effort, ['low', 'medium', 'high', 'xhigh', 'max'], 'output_config.effort');
    if (given(config.format)) format = config.format;
  }
  // `output_format` is the structured-outputs beta's name for the same thing, still accepted.
  if (format === undefined && given(body.output_format)) {
    format = body.output_format;
    path = 'output_format';
  }
  if (format === undefined) return { type: 'text' };
  const f = expectObject(format, path);
  expectEnum(requiredMember(f, 'type', path), ['json_schema'], `${path}.type`);
  const schema = expectObject(requiredMember(f, 'schema', path), `${path}.schema`);
  checkSchema(schema, `${path}.schema`);
  return { type: 'json_schema', schema };
}

const BUDGET = { min: 1024 };
const UNIT = { min: 0, max: 1 };
const NON_NEGATIVE = { min: 0 };

/** True when thinking is on (enabled or adaptive). */
export function decodeThinking(raw: unknown, maxTokens: number): boolean {
  if (!given(raw)) return false;
  const t = expectObject(raw, 'thinking');
  const type = tag(t, ['enabled', 'disabled', 'adaptive', 'between_tools'], 'thinking');
  if (given(t.display)) expectEnum(t.display, ['summarized', 'omitted'], `thinking.${type}.display`);
  if (type === 'enabled') {
    const budget = expectInteger(requiredMember(t, 'budget_tokens', 'thinking.enabled'), 'thinking.enabled.budget_tokens', BUDGET);
    if (maxTokens <= budget) fail('', '`max_tokens` must be greater than `thinking.budget_tokens`');
  }
  return type === 'enabled' || type === 'adaptive';
}

export function decodeSampling(body: Record<string, unknown>, v2026: boolean): void {
  for (const key of ['temperature', 'top_p', 'top_k'] as const) {
    const value = body[key];
    if (value === undefined) continue;
    if (v2026) {
      fail(key, `Extra inputs are not permitted (anthropic-version ${VERSION_2026} no longer accepts temperature, top_p or top_k)`);
    }
    if (key === 'top_k') expectInteger(value, key, NON_NEGATIVE);
    else expectNumber(value, key, UNIT);
  }
}

export function decodeMaxTokens(body: Record<string, unknown>, model: string): number {
  const value = expectInteger(requiredMember(body, 'max_tokens', ''), 'max_tokens', NON_NEGATIVE);
  if (value > MAX_OUTPUT_TOKENS) {
    fail('', `max_tokens: ${value} > ${MAX_OUTPUT_TOKENS}, which is the maximum allowed number of output tokens for ${model}`);
  }
  if (value === 0) {
    fail('max_tokens', 'Understudy does not support max_tokens 0 (warming the prompt cache without an answer); ask for at least 1 token');
  }
  return value;
}

/** Options the API (or a beta) takes that change nothing in a scripted answer: type-checked only. */
export function decodeBetaOptions(body: Record<string, unknown>): void {
  if (given(body.speed)) expectEnum(body.speed, ['standard', 'fast'], 'speed');
  for (const key of ['inference_geo', 'user_profile_id', 'workspace_id'] as const) if (given(body[key])) expectString(body[key], key);
  if (given(body.container) && typeof body.container !== 'string') expectObject(body.container, 'container');
  for (const key of ['context_management', 'diagnostics', 'compaction', 'thread', 'billing_policy'] as const) {
    if (given(body[key])) expectObject(body[key], key);
  }
  // A list of fallback models, or 'default'.
  if (given(body.fallbacks)) {
    if (typeof body.fallbacks === 'string') expectEnum(body.fallbacks, ['default'], 'fallbacks');
    else expectArray(body.fallbacks, 'fallbacks').forEach((entry, i) => expectObject(entry, `fallbacks.${i}`));
  }
  if (given(body.fallback_credit_token) && typeof body.fallback_credit_token !== 'string') {
    expectObject(body.fallback_credit_token, 'fallback_credit_token');
  }
}

/** Stop sequences: strings, none of them empty or only whitespace (the API's own sentences). */
export function checkStopSequences(raw: unknown): void {
  if (!given(raw)) return;
  expectArray(raw, 'stop_sequences').forEach((value, i) => {
    const sequence = expectString(value, `stop_sequences.${i}`);
    if (sequence === '') fail('stop_sequences', 'each stop sequence must be non-empty');
    if (sequence.trim() === '') fail('stop_sequences', 'each stop sequence must contain non-whitespace');
  });
}

const USER_ID_LENGTH = { max: 256 };

/** `metadata` has one member, `user_id` (a string of at most 256 characters). */
export function checkMetadata(raw: unknown): void {
  if (!given(raw)) return;
  const metadata = expectObject(raw, 'metadata');
  for (const key in metadata) if (key !== 'user_id') fail(`metadata.${key}`, 'Extra inputs are not permitted');
  if (given(metadata.user_id)) expectLength(expectString(metadata.user_id, 'metadata.user_id'), 'metadata.user_id', USER_ID_LENGTH);
}
