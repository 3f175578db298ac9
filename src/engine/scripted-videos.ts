// How video jobs made for chosen prompts run (the fixture's `videos` list), compiled once when
// the fixture is loaded: the first entry whose prompt (and model, when it names one) matches gives
// the job's timeline and bytes — or, for an entry with `error`, the provider error the create gets.

import type { NeutralError } from '../core/errors.js';
import { DEFAULT_VIDEO_TIMELINE, type VideoContent, type VideoScript } from '../core/video-jobs.js';
import { textMatcher } from './predicates.js';
import type { ScriptedVideoSpec } from './spec.js';

interface CompiledVideo {
  test(text: string): boolean;
  model: string | undefined;
  script: VideoScript;
}

function errorOf(e: NonNullable<ScriptedVideoSpec['error']>): NeutralError {
  return {
    kind: 'scripted',
    status: e.status,
    code: e.code ?? null,
    type: e.type,
    message: e.message,
    headers: e.headers,
    ...(e.extra && { extra: e.extra }),
  };
}

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
        ...(spec.download.error && { error: errorOf(spec.download.error) }),
        ...(spec.download.delayMs !== undefined && { delayMs: spec.download.delayMs }),
        ...(spec.download.fault && { fault: spec.download.fault }),
      },
    }),
    ...(spec.error && { error: errorOf(spec.error) }),
    ...(spec.delayMs !== undefined && { delayMs: spec.delayMs }),
    ...(spec.fault && { fault: spec.fault }),
  };
}

export class ScriptedVideos {
  private readonly entries: readonly CompiledVideo[];

  /** As loaded: what `serve --workers` sends the replicas. */
  constructor(readonly specs: readonly ScriptedVideoSpec[]) {
    this.entries = specs.map((spec) => ({ test: textMatcher(spec.prompt).test, model: spec.model, script: scriptOf(spec) }));
  }

  /** The script of the first entry matching `prompt` and `model`; undefined when none does. */
  scriptFor(prompt: string, model: string): VideoScript | undefined {
    for (const entry of this.entries) {
      if ((entry.model === undefined || entry.model === model) && entry.test(prompt)) return entry.script;
    }
    return undefined;
  }
}

export const NO_SCRIPTED_VIDEOS = new ScriptedVideos([]);
