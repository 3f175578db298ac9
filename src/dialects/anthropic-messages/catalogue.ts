// Which models an Anthropic session has: its catalogue (SessionOptions.models, strict) or, with
// none, every model, listed as ANTHROPIC_DEFAULT_MODELS. The model list, count_tokens and Messages
// all refuse a model outside it alike.

import type { NeutralError } from '../../core/errors.js';
import type { DialectState } from '../dialect.js';

/** The ids a session with no catalogue lists. */
export const ANTHROPIC_DEFAULT_MODELS: readonly string[] = ['claude-opus-4-1', 'claude-sonnet-4-6', 'claude-haiku-4-5'];

/** Anthropic's 404 for a model outside a strict catalogue; undefined for a model the session has. */
export function unknownAnthropicModel(state: DialectState, id: string): NeutralError | undefined {
  const models = state.models?.();
  if (models === undefined || models.includes(id)) return undefined;
  return { kind: 'not_found', status: 404, code: null, message: `model: ${id}` };
}
