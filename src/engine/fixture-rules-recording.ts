// The rules of the recording parts of the fixture format (fixture-schema-recording.ts attaches
// them): token counts that add up, one place for the reasoning count, and recorded header names.

import { has, isObj, type Obj, type Path, type RuleContext } from './fixture-words.js';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** The cached and cache-written parts are parts of the prompt: they need its count and fit in it. */
export function usageRule(usage: Obj, path: Path, ctx: RuleContext): void {
  const parts = (['cachedInputTokens', 'cacheWriteTokens'] as const).filter((key) => has(usage, key));
  if (parts.length === 0) return;
  if (!has(usage, 'inputTokens')) {
    ctx.report(
      [...path, parts[0]],
      `expected "inputTokens" beside "${parts[0]}" (the cached part is part of the whole prompt); found no "inputTokens"`,
    );
    return;
  }
  const counts = [usage.inputTokens, ...parts.map((key) => usage[key])];
  if (!counts.every((n) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0)) return;
  const input = usage.inputTokens as number;
  const cached = parts.reduce((sum, key) => sum + (usage[key] as number), 0);
  if (cached > input)
    ctx.report(
      [...path, parts[parts.length - 1]],
      `expected ${parts.map((key) => `"${key}"`).join(' + ')} at most "inputTokens" (${input}, the whole prompt); found ${cached}`,
    );
}

/** A reply says its reasoning tokens once: in `usage` or, as before `usage`, beside it. */
export function replyUsageRule(reply: Obj, path: Path, ctx: RuleContext): void {
  if (has(reply, 'reasoningTokens') && isObj(reply.usage) && has(reply.usage, 'reasoningTokens'))
    ctx.report(
      [...path, 'reasoningTokens'],
      'expected the reasoning tokens once, in "usage.reasoningTokens" or "reasoningTokens", not both; found both',
    );
}

/** Recorded request headers are kept with lower-case names. */
export function recordedHeadersRule(headers: Obj, path: Path, ctx: RuleContext): void {
  for (const key of Object.keys(headers)) {
    if (!HEADER_NAME.test(key)) ctx.report([...path, key], `expected a lower-case HTTP header name; found "${key}"`, true);
  }
}

export const RECORDING_RULES = { usageRule, replyUsageRule, recordedHeadersRule };
