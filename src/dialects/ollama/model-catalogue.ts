// The session's Ollama models: every model an answer on /api/chat or /api/generate was delivered
// for, under the name Ollama lists it by (`llama3.2` is `llama3.2:latest`). /api/tags, /api/ps and
// /api/show answer from it (info-routes.ts). Bounded: past MAX_MODELS names, no more are added.
// A session with a model catalogue of its own (SessionOptions.models) is strict: only those models
// are answered for, and they are the ones listed.

import type { DialectState } from '../dialect.js';

export const MAX_MODELS = 256;

export interface CatalogueEntry {
  /** Seconds since the epoch (session clock) of the first answer for it. */
  since: number;
}

export function catalogue(state: DialectState): Map<string, CatalogueEntry> {
  return state.store('ollama.models', () => new Map<string, CatalogueEntry>());
}

/** A model name as Ollama lists it: with its tag, `latest` when the name has none. */
export function listedName(model: string): string {
  const afterNamespace = model.slice(model.lastIndexOf('/') + 1);
  return afterNamespace.includes(':') ? model : `${model}:latest`;
}

export function recordModel(state: DialectState, model: string, clock: number): void {
  const models = catalogue(state);
  if (models.size >= MAX_MODELS) return;
  const name = listedName(model);
  if (!models.has(name)) models.set(name, { since: clock });
}

const STRICT = new WeakMap<readonly string[], ReadonlySet<string>>();

/** The listed names of the session's own catalogue; undefined when the session has none. */
export function strictCatalogue(state: DialectState): ReadonlySet<string> | undefined {
  const models = state.models?.();
  if (models === undefined) return undefined;
  let names = STRICT.get(models);
  if (!names) STRICT.set(models, (names = new Set(models.map(listedName))));
  return names;
}
