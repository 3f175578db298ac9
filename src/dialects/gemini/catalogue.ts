// Which models a Gemini session has: its catalogue (SessionOptions.models, strict) or, with none,
// every model, listed as GEMINI_DEFAULT_MODELS. A catalogue entry may be written with or without
// `models/`. The model list, countTokens and generateContent all refuse a model outside it alike.

import type { NeutralError } from '../../core/errors.js';
import type { DialectState } from '../dialect.js';
import { hasModel, modelList, type ModelList } from '../wire-kit/model-list.js';

/** The models a session with no catalogue lists. */
export const GEMINI_DEFAULT_MODELS: readonly string[] = ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite'];

export function bareModel(name: string): string {
  return name.startsWith('models/') ? name.slice('models/'.length) : name;
}

export function sessionGeminiModels(state: DialectState): ModelList {
  const list = modelList(state, GEMINI_DEFAULT_MODELS);
  return list.strict ? { ...list, ids: list.ids.map(bareModel) } : list;
}

/** Where a Vertex AI request names its model: the project and location of its path (none in express mode). */
export interface VertexScope {
  project?: string;
  location?: string;
}

/** Gemini's 404 for a model outside a strict catalogue (Vertex AI's wording on its routes);
 * undefined for a model the session has. */
export function unknownGeminiModel(state: DialectState, model: string, version: string, vertex?: VertexScope): NeutralError | undefined {
  if (state.models?.() === undefined) return undefined;
  const id = bareModel(model);
  if (hasModel(sessionGeminiModels(state), id)) return undefined;
  const scope = vertex?.project !== undefined ? `projects/${vertex.project}/locations/${vertex.location ?? ''}/` : '';
  const message = vertex
    ? `Publisher Model \`${scope}publishers/google/models/${id}\` was not found or your project does not have access to it.`
    : `models/${id} is not found for API version ${version}, or is not supported for this method.`;
  return { kind: 'not_found', status: 404, code: 'NOT_FOUND', message };
}
