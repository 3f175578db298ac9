// The images a fixture scripts for chosen prompts (the fixture's `images` list), compiled once
// when the fixture is loaded: the first entry whose prompt (and model, when it names one) matches
// gives the answer — scripted bytes, a revised prompt, a provider error, a delay, a fault.

import { imageKindOf, type ScriptedImage } from '../core/scripted-image.js';
import { ScriptedList, scriptedError } from './scripted-list.js';
import type { ScriptedImageSpec } from './spec.js';

function answerOf(spec: ScriptedImageSpec): ScriptedImage {
  const data = spec.b64 === undefined ? undefined : Buffer.from(spec.b64.replace(/\s+/g, ''), 'base64');
  // The format's rule holds scripted bytes to a PNG, JPEG or WebP image.
  const kind = data && imageKindOf(data);
  return {
    ...(data && kind && { bytes: { data, kind } }),
    ...(spec.revisedPrompt !== undefined && { revisedPrompt: spec.revisedPrompt }),
    ...(spec.file !== undefined && spec.b64 === undefined && { unreadFile: spec.file }),
    ...(spec.error && { error: scriptedError(spec.error) }),
    ...(spec.delayMs !== undefined && { delayMs: spec.delayMs }),
    ...(spec.fault && { fault: spec.fault }),
  };
}

export class ScriptedImages extends ScriptedList<ScriptedImageSpec, ScriptedImage> {
  constructor(specs: readonly ScriptedImageSpec[]) {
    super(specs, (spec) => ({ text: spec.prompt, model: spec.model, answer: answerOf(spec) }));
  }

  /** The scripted answer of `prompt` for `model`; undefined when no entry matches. */
  imageOf(prompt: string, model: string): ScriptedImage | undefined {
    return this.find(prompt, model);
  }
}

export const NO_SCRIPTED_IMAGES = new ScriptedImages([]);
