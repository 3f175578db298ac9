// The images a fixture scripts for chosen prompts (the fixture's `images` list), compiled once
// when the fixture is loaded: the first entry whose prompt (and model, when it names one) matches
// gives the answer — scripted bytes, a revised prompt, a provider error, a delay, a fault.

import type { NeutralError } from '../core/errors.js';
import { imageKindOf, type ScriptedImage } from '../core/scripted-image.js';
import { textMatcher } from './predicates.js';
import type { ScriptedImageSpec } from './spec.js';

interface CompiledImage {
  test(text: string): boolean;
  model: string | undefined;
  answer: ScriptedImage;
}

function errorOf(e: NonNullable<ScriptedImageSpec['error']>): NeutralError {
  return {
    kind: 'scripted',
    status: e.status,
    code: e.code ?? null,
    type: e.type,
    message: e.message,
    headers: e.headers,
    ...(e.inStream && { inStream: true }),
    ...(e.extra && { extra: e.extra }),
  };
}

function answerOf(spec: ScriptedImageSpec): ScriptedImage {
  const data = spec.b64 === undefined ? undefined : Buffer.from(spec.b64.replace(/\s+/g, ''), 'base64');
  // The format's rule holds scripted bytes to a PNG, JPEG or WebP image.
  const kind = data && imageKindOf(data);
  return {
    ...(data && kind && { bytes: { data, kind } }),
    ...(spec.revisedPrompt !== undefined && { revisedPrompt: spec.revisedPrompt }),
    ...(spec.file !== undefined && spec.b64 === undefined && { unreadFile: spec.file }),
    ...(spec.error && { error: errorOf(spec.error) }),
    ...(spec.delayMs !== undefined && { delayMs: spec.delayMs }),
    ...(spec.fault && { fault: spec.fault }),
  };
}

export class ScriptedImages {
  private readonly entries: readonly CompiledImage[];

  /** As loaded: what `serve --workers` sends the replicas. */
  constructor(readonly specs: readonly ScriptedImageSpec[]) {
    this.entries = specs.map((spec) => ({ test: textMatcher(spec.prompt).test, model: spec.model, answer: answerOf(spec) }));
  }

  /** The scripted answer of `prompt` for `model`; undefined when no entry matches. */
  imageOf(prompt: string, model: string): ScriptedImage | undefined {
    for (const entry of this.entries) {
      if ((entry.model === undefined || entry.model === model) && entry.test(prompt)) return entry.answer;
    }
    return undefined;
  }
}

export const NO_SCRIPTED_IMAGES = new ScriptedImages([]);
