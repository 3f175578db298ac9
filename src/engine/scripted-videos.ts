// How video jobs made for chosen prompts run (the fixture's `videos` list), compiled once when
// the fixture is loaded: the first entry whose prompt (and model, when it names one) matches gives
// the job's timeline and bytes — or, for an entry with `error`, the provider error the create gets.

import { DEFAULT_VIDEO_TIMELINE, type VideoContent, type VideoScript } from '../core/video-jobs.js';
import { ScriptedList, scriptedError } from './scripted-list.js';
import type { ScriptedVideoSpec } from './spec.js';

function contentOf(spec: ScriptedVideoSpec['content']): VideoContent | undefined {
  if (!spec) return undefined;
  const bytes = (b64: string | undefined) => (b64 === undefined ? undefined : new Uint8Array(Buffer.from(b64, 'base64')));
  return { video: bytes(spec.video), thumbnail: bytes(spec.thumbnail), spritesheet: bytes(spec.spritesheet) };
}

function scriptOf(spec: ScriptedVideoSpec): VideoScript {
  const outcome = spec.outcome ?? DEFAULT_VIDEO_TIMELINE.outcome;
  return {
    timeline: {
      queuedSeconds: spec.queuedSeconds ?? DEFAULT_VIDEO_TIMELINE.queuedSeconds,
      runSeconds: spec.runSeconds ?? DEFAULT_VIDEO_TIMELINE.runSeconds,
      outcome,
      ...(outcome === 'failed' && {
        failure: { code: spec.failure?.code ?? 'video_generation_failed', message: spec.failure?.message ?? 'Video generation failed.' },
      }),
    },
    content: contentOf(spec.content),
    ...(spec.download && {
      download: {
        ...(spec.download.error && { error: scriptedError(spec.download.error) }),
        ...(spec.download.delayMs !== undefined && { delayMs: spec.download.delayMs }),
        ...(spec.download.fault && { fault: spec.download.fault }),
      },
    }),
    ...(spec.error && { error: scriptedError(spec.error) }),
    ...(spec.delayMs !== undefined && { delayMs: spec.delayMs }),
    ...(spec.fault && { fault: spec.fault }),
  };
}

export class ScriptedVideos extends ScriptedList<ScriptedVideoSpec, VideoScript> {
  constructor(specs: readonly ScriptedVideoSpec[]) {
    super(specs, (spec) => ({ text: spec.prompt, model: spec.model, answer: scriptOf(spec) }));
  }

  /** The script of the first entry matching `prompt` and `model`; undefined when none does. */
  scriptFor(prompt: string, model: string): VideoScript | undefined {
    return this.find(prompt, model);
  }
}

export const NO_SCRIPTED_VIDEOS = new ScriptedVideos([]);
