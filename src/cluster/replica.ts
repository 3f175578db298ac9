// Which sessions edge workers may answer themselves, and how their replicas follow the owner.
//
// A session is answered locally by an edge only when no answer can depend on, or change, state an
// edge does not have: every script has one step and repeats it once exhausted, without a reply
// limit, and the session injects no chaos. Consumption is then the same wherever it happens; what
// it leaves behind (journal entries, counters, step use, tool calls) is shipped to the owner.

import { DEFAULT_PROMPT_CACHE } from '../core/prompt-cache.js';
import type { Session } from '../engine/session.js';
import type { Registry } from '../engine/registry.js';
import type { Script } from '../engine/script.js';
import type { SessionDescriptor } from './protocol.js';

export function answerableAnywhere(session: Session): boolean {
  if (session.chaos) return false;
  return session.scripts.every(repeatsOneStep);
}

function repeatsOneStep(script: Script): boolean {
  return (
    script.steps.length === 1 && (script.exhausted === 'repeat_last' || script.exhausted === 'restart') && script.maxReplies === Infinity
  );
}

export function describeSession(session: Session): SessionDescriptor {
  const local = answerableAnywhere(session);
  return {
    id: session.id,
    local,
    apiKey: session.apiKey,
    generation: session.generation,
    fallback: session.fallback,
    clock: session.clock,
    seed: session.seed,
    requireApiKey: session.requireApiKey,
    ...(session.pacing && { pacing: session.pacing }),
    streamFlavour: session.streamFlavour,
    ...(session.models && { models: session.models }),
    promptCache: session.promptCache.options,
    ...(local && { scenarios: session.scripts.map((s) => s.spec) }),
    ...(session.embeddings.specs.length > 0 && { embeddings: session.embeddings.specs }),
    ...(session.images.specs.length > 0 && { images: session.images.specs }),
    ...(session.audio.speechSpecs.length > 0 && { speech: session.audio.speechSpecs }),
    ...(session.audio.transcriptSpecs.length > 0 && { transcriptions: session.audio.transcriptSpecs }),
  };
}

/** What was last published of a session: the fields a control request can change. */
interface Published {
  scripts: readonly Script[];
  generation: number;
  fallback: string;
  clock: number;
  pacing: unknown;
  chaos: unknown;
  streamFlavour: string;
  models: readonly string[] | undefined;
  embeddings: unknown;
  images: unknown;
  audio: unknown;
}

/** The owner's view of what edges know, to publish only sessions that changed. */
export class PublishedSessions {
  private readonly published = new Map<string, Published>();

  /** Descriptors of every session that changed since the last call (and of every deleted one). */
  changes(registry: Registry): SessionDescriptor[] {
    const out: SessionDescriptor[] = [];
    const seen = new Set<string>();
    for (const session of registry.list()) {
      seen.add(session.id);
      const last = this.published.get(session.id);
      if (
        last &&
        last.scripts === session.scripts &&
        last.generation === session.generation &&
        last.fallback === session.fallback &&
        last.clock === session.clock &&
        last.pacing === session.pacing &&
        last.chaos === session.chaos &&
        last.streamFlavour === session.streamFlavour &&
        last.models === session.models &&
        last.embeddings === session.embeddings &&
        last.images === session.images &&
        last.audio === session.audio
      )
        continue;
      this.published.set(session.id, {
        scripts: session.scripts,
        generation: session.generation,
        fallback: session.fallback,
        clock: session.clock,
        pacing: session.pacing,
        chaos: session.chaos,
        streamFlavour: session.streamFlavour,
        models: session.models,
        embeddings: session.embeddings,
        images: session.images,
        audio: session.audio,
      });
      out.push(describeSession(session));
    }
    for (const [id, last] of this.published) {
      if (seen.has(id)) continue;
      this.published.delete(id);
      out.push({ ...REMOVED, id, generation: last.generation + 1 });
    }
    return out;
  }
}

const REMOVED: Omit<SessionDescriptor, 'id'> = {
  removed: true,
  local: false,
  apiKey: '',
  generation: 0,
  fallback: 'strict',
  clock: 0,
  seed: '',
  requireApiKey: false,
  promptCache: DEFAULT_PROMPT_CACHE,
};
