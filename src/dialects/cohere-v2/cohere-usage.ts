// Cohere v2's `usage`: `billed_units` and `tokens` (../cohere/usage.ts), and `cached_tokens`, the
// part of the prompt read from the cache.

import type { Usage } from '../../core/model.js';
import { billedUnitsJson, tokensJson } from '../cohere/usage.js';

export function cohereUsageJson(usage: Usage): string {
  return `{"billed_units":${billedUnitsJson(usage)},"tokens":${tokensJson(usage)},"cached_tokens":${usage.cachedInputTokens}}`;
}
