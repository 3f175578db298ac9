// Which body an InvokeModel request speaks, from the model id in its path: a foundation model id
// (`anthropic.claude-3-haiku-20240307-v1:0`), an inference profile id with its geography prefix
// (`us.amazon.nova-lite-v1:0`, `global.anthropic.…`) or an ARN ending in either. An ARN that names
// no model (an application inference profile, a provisioned model) says nothing of the family: the
// body's own required member then tells it.

import { isObject } from '../wire-kit/values.js';

export type InvokeFamily = 'anthropic' | 'titan-text' | 'nova';

/** A family Understudy does not answer on InvokeModel, with why. */
export interface UnansweredFamily {
  unanswered: 'embeddings' | 'other';
}

/** The id's last path segment (an ARN's resource name), without a geography prefix. */
function modelName(modelId: string): string {
  const name = modelId.slice(modelId.lastIndexOf('/') + 1);
  const m = /^(?:us|eu|apac|ap|us-gov|ca|jp|au|global)\.(.+)$/.exec(name);
  return m ? m[1] : name;
}

const EMBEDDINGS = /^(?:amazon\.titan-embed-|amazon\.nova-[\w-]*embed|cohere\.embed-|twelvelabs\.marengo)/;

/** The embedding bodies Understudy answers on InvokeModel (embed.ts). */
export type EmbeddingFamily = 'titan-v1' | 'titan-v2' | 'cohere-v3' | 'cohere-v4';

/** The embedding body a model id speaks; undefined for any other model (and for the embedding
 * models Understudy does not answer: images, Nova multimodal, Marengo). */
export function embeddingFamilyOf(modelId: string): EmbeddingFamily | undefined {
  const name = modelName(modelId);
  if (!name.startsWith('amazon.titan-embed-text') && !name.startsWith('amazon.titan-embed-g1-text') && !name.startsWith('cohere.embed-')) {
    return undefined;
  }
  if (name.startsWith('amazon.titan-embed-text-v2')) return 'titan-v2';
  if (name.startsWith('amazon.titan-embed')) return 'titan-v1';
  if (/^cohere\.embed-(?:english|multilingual)-v3/.test(name)) return 'cohere-v3';
  if (name.startsWith('cohere.embed-v4')) return 'cohere-v4';
  return undefined;
}

export function familyOfModel(modelId: string): InvokeFamily | UnansweredFamily | undefined {
  const name = modelName(modelId);
  if (EMBEDDINGS.test(name)) return { unanswered: 'embeddings' };
  if (name.startsWith('anthropic.')) return 'anthropic';
  if (name.startsWith('amazon.titan-text-') || name.startsWith('amazon.titan-tg1-')) return 'titan-text';
  if (/^amazon\.nova-(?:micro|lite|pro|premier|2-lite)\b/.test(name)) return 'nova';
  // A model id of a known shape (`provider.model`) from another family; an ARN naming no model
  // (no dot in its resource name) is read by its body.
  return name.includes('.') ? { unanswered: 'other' } : undefined;
}

/** The family of a body whose model id names none, by the member each family requires. */
export function familyOfBody(body: unknown): InvokeFamily | undefined {
  if (!isObject(body)) return undefined;
  if (body.anthropic_version !== undefined) return 'anthropic';
  if (body.inputText !== undefined) return 'titan-text';
  if (body.messages !== undefined) return 'nova';
  return undefined;
}
