// The models a provider's model-list routes describe: the session's own catalogue
// (SessionOptions.models, fixture `session.models`) when it has one, which is then strict (a model
// outside it is not found), else the provider's well-known ids, with every other id found too
// (such a session answers any model).

import type { DialectState } from '../dialect.js';

export interface ModelList {
  ids: readonly string[];
  /** Only `ids` exist: another id is the provider's not-found. */
  strict: boolean;
}

export function modelList(state: DialectState, defaults: readonly string[]): ModelList {
  const own = state.models?.();
  return own === undefined ? { ids: defaults, strict: false } : { ids: own, strict: true };
}

/** Whether `id` is a model the session has. */
export function hasModel(list: ModelList, id: string): boolean {
  return !list.strict || list.ids.includes(id);
}
