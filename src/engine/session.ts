// A session owns everything one test sees: scripts and cursors, journal, id counter and clock.

import { latestUserText } from '../core/conversation.js';
import type { NeutralError } from '../core/errors.js';
import type { ScriptedSpeech, ScriptedTranscript, SpeechAsk, TranscriptAsk } from '../core/scripted-audio.js';
import type { AnswerAct, ChaosOptions, ChatRequest, Pacing, StreamFlavour } from '../core/model.js';
import { nodeCrypto } from '../core/node-crypto.js';
import { DEFAULT_PROMPT_CACHE, PromptCache, type PromptCacheOptions } from '../core/prompt-cache.js';
import { flattened, IdSequence, idPrefix } from './ids.js';

const REQUEST_ID_PREFIX = 'req_';
import { Journal } from './journal.js';
import type { JournalFeed } from './journal-feed.js';
import { Script } from './script.js';
import { NO_SCRIPTED_VECTORS, ScriptedVectors } from './scripted-vectors.js';
import { NO_SCRIPTED_IMAGES, ScriptedImages } from './scripted-images.js';
import type { ScriptedImage } from '../core/scripted-image.js';
import { NO_SCRIPTED_AUDIO, type ScriptedAudio } from './scripted-audio.js';
import { NO_SCRIPTED_VIDEOS, ScriptedVideos } from './scripted-videos.js';
import { DEFAULT_VIDEO_CAPACITY, VideoJobStore, type VideoCapacity, type VideoScript } from '../core/video-jobs.js';
import { ToolLedger } from './tool-ledger.js';
import type { FallbackMode, FixtureSpec } from './spec.js';

export const DEFAULT_CLOCK = 1767225600; // 2026-01-01T00:00:00Z

export interface SessionOptions {
  id: string;
  apiKey?: string;
  fallback?: FallbackMode;
  /** Seconds since the epoch reported as `created` and similar fields. */
  clock?: number;
  /** Seed of the id sequence; defaults to the session id. */
  seed?: string;
  journalLimit?: number;
  /** Journal bytes kept across entries, and the largest body kept whole in one entry. */
  journalBytes?: number;
  journalEntryBytes?: number;
  /** Provider requests must carry this session's API key, even when they name the session by
   * path prefix or header. */
  requireApiKey?: boolean;
  /** Pacing of streamed answers in this session (a scenario's and a step's override the fields they set). */
  pacing?: Pacing;
  /** Injected chaos for every request of the session (request headers can add to it). */
  chaos?: ChaosOptions;
  /** Prompt-cache identity: which repeated prefixes report cached input tokens. */
  promptCache?: Partial<PromptCacheOptions>;
  /** How streams look on hosts with a flavour of their own (default `plain`; `azure`: Azure's
   * prompt-filter and content-filter chunks on Azure and Foundry routes). */
  streamFlavour?: StreamFlavour;
  /** The session's model catalogue: when given, dialects that check models (Ollama, OpenAI Chat,
   * Anthropic Messages, Gemini) refuse any other model as their provider refuses a model it does
   * not have, and the model-list routes list these. */
  models?: readonly string[];
  /** The budget of the session's stored video jobs (default 256 jobs, 64 MiB; docs/videos.md). */
  videoCapacity?: Partial<VideoCapacity>;
  /** Record mode for this session, on a server that records (docs/record-replay.md): its own
   * upstreams and mode over the server's, or false to record nothing of it. */
  record?: SessionRecording | false;
}

export interface SessionRecording {
  /** Provider name to its real base URL, over the server's. */
  upstreams?: Record<string, string>;
  mode?: 'missing' | 'all';
}

export interface SessionInfo {
  id: string;
  apiKey: string;
  fallback: FallbackMode;
  clock: number;
  scripts: { name: string; steps: number; replies: number; complete: boolean }[];
}

export class Session {
  readonly id: string;
  readonly apiKey: string;
  fallback: FallbackMode;
  clock: number;
  readonly seed: string;
  readonly requireApiKey: boolean;
  readonly record: SessionRecording | false | undefined;
  pacing: Pacing | undefined;
  chaos: ChaosOptions | undefined;
  streamFlavour: StreamFlavour;
  /** Replaced, never mutated: the decode context keys on its identity. */
  models: readonly string[] | undefined;
  scripts: Script[] = [];
  /** The fixture's scripted embedding vectors (its `embeddings` list); kept by reset, as scripts are. */
  embeddings: ScriptedVectors = NO_SCRIPTED_VECTORS;
  /** The fixture's scripted images (its `images` list); kept by reset, as scripts are. */
  images: ScriptedImages = NO_SCRIPTED_IMAGES;
  /** The fixture's scripted speech and transcriptions (its `speech`, `transcriptions` lists); kept by reset. */
  audio: ScriptedAudio = NO_SCRIPTED_AUDIO;
  /** The fixture's scripted video jobs (its `videos` list); kept by reset, as scripts are. */
  videos: ScriptedVideos = NO_SCRIPTED_VIDEOS;
  /** The video jobs of every provider's routes, within the session's video capacity; emptied by
   * reset, by a replacing load and by setting the capacity. */
  readonly videoJobs: VideoJobStore;
  readonly journal: Journal;
  readonly promptCache: PromptCache;
  readonly toolLedger = new ToolLedger();
  /** Bumped by reset and reload: requests in flight from an older generation are superseded. */
  generation = 0;
  /** Set by the registry the session belongs to: its journal's entries and its changes are told there. */
  get feed(): JournalFeed | undefined {
    return this.journal.feed;
  }
  set feed(feed: JournalFeed | undefined) {
    this.journal.feed = feed;
  }
  private counter = 0;
  /** Stores that dialects keep in this session (e.g. stored responses); cleared by reset. */
  private readonly dialectStores = new Map<string, unknown>();
  readonly dialectState = {
    sessionId: '',
    store: <T>(name: string, create: () => T): T => {
      let store = this.dialectStores.get(name) as T | undefined;
      if (store === undefined) this.dialectStores.set(name, (store = create()));
      return store;
    },
    zeroConfig: (): boolean => this.fallback === 'auto',
    streamFlavour: (): StreamFlavour => this.streamFlavour,
    models: (): readonly string[] | undefined => this.models,
    scriptedVector: (text: string, model: string): Float32Array | NeutralError | undefined => this.embeddings.vectorOf(text, model),
    embeddingAct: (texts: readonly string[], model: string): AnswerAct | undefined => this.embeddings.actOf(texts, model),
    scriptedImage: (prompt: string, model: string): ScriptedImage | undefined => this.images.imageOf(prompt, model),
    scriptedSpeech: (ask: SpeechAsk): ScriptedSpeech | undefined => this.audio.speechFor(ask),
    scriptedTranscript: (ask: TranscriptAsk): ScriptedTranscript | undefined => this.audio.transcriptFor(ask),
    videoJobs: (): VideoJobStore => this.videoJobs,
    scriptedVideo: (prompt: string, model: string): VideoScript | undefined => this.videos.scriptFor(prompt, model),
  };
  private readonly ids: IdSequence;

  constructor(options: SessionOptions) {
    this.id = options.id;
    this.apiKey = options.apiKey ?? `us-${options.id}-${nodeCrypto().randomBytes(6).toString('hex')}`;
    this.fallback = options.fallback ?? 'strict';
    this.clock = options.clock ?? DEFAULT_CLOCK;
    this.seed = options.seed ?? options.id;
    this.requireApiKey = options.requireApiKey ?? false;
    this.record = options.record;
    this.pacing = options.pacing;
    this.chaos = options.chaos;
    this.streamFlavour = options.streamFlavour ?? 'plain';
    this.models = options.models && Object.freeze([...options.models]);
    this.ids = new IdSequence(idPrefix(this.seed));
    this.dialectState.sessionId = this.id;
    this.journal = new Journal(
      {
        ...(options.journalLimit !== undefined && { entries: options.journalLimit }),
        ...(options.journalBytes !== undefined && { bytes: options.journalBytes }),
        ...(options.journalEntryBytes !== undefined && { entryBytes: options.journalEntryBytes }),
      },
      (n) => this.requestIdOf(n),
    );
    this.promptCache = new PromptCache({ ...DEFAULT_PROMPT_CACHE, ...options.promptCache });
    const videoIds = new IdSequence(idPrefix(`${this.seed}/videos`));
    this.videoJobs = new VideoJobStore(
      (api, n) => (api === 'gemini' ? videoIds.id(n).toLowerCase() : `${api === 'openai' ? 'video_' : 'task_'}${videoIds.id(n)}`),
      { ...DEFAULT_VIDEO_CAPACITY, ...options.videoCapacity },
    );
  }

  /** Compiles every scenario first, so a bad one leaves the session unchanged. */
  load(fixture: FixtureSpec, replace = false): void {
    const compiled = fixture.scenarios.map((spec) => new Script(structuredClone(spec)));
    const embeddings = fixture.embeddings && new ScriptedVectors(fixture.embeddings);
    const images = fixture.images && new ScriptedImages(fixture.images);
    const audio = this.audio.loaded(fixture.speech, fixture.transcriptions, replace);
    const videos = fixture.videos && new ScriptedVideos(fixture.videos);
    if (replace) {
      this.scripts = compiled;
      this.generation++;
    } else {
      const names = new Set(compiled.map((s) => s.name));
      this.scripts = [...this.scripts.filter((s) => !names.has(s.name)), ...compiled];
    }
    if (fixture.session?.fallback) this.fallback = fixture.session.fallback;
    if (fixture.session?.pacing) this.pacing = fixture.session.pacing;
    if (fixture.session?.streamFlavour) this.streamFlavour = fixture.session.streamFlavour;
    if (fixture.session?.models) this.models = Object.freeze([...fixture.session.models]);
    if (embeddings) this.embeddings = embeddings;
    else if (replace) this.embeddings = NO_SCRIPTED_VECTORS;
    if (images) this.images = images;
    else if (replace) this.images = NO_SCRIPTED_IMAGES;
    this.audio = audio;
    if (videos) this.videos = videos;
    else if (replace) this.videos = NO_SCRIPTED_VIDEOS;
    const capacity = fixture.session?.videoCapacity;
    if (capacity) this.videoJobs.configure({ ...this.videoJobs.capacity, ...capacity });
    else if (replace) this.videoJobs.clear();
    this.feed?.sessionChanged(this.id, 'loaded');
  }

  /** Rewinds every cursor, clears the journal and the id counter; `scripts` also removes the scripts. */
  reset(options: { scripts?: boolean } = {}): void {
    if (options.scripts) {
      this.scripts = [];
      this.embeddings = NO_SCRIPTED_VECTORS;
      this.images = NO_SCRIPTED_IMAGES;
      this.audio = NO_SCRIPTED_AUDIO;
      this.videos = NO_SCRIPTED_VIDEOS;
    } else for (const script of this.scripts) script.rewind();
    this.journal.clear();
    this.dialectStores.clear();
    this.promptCache.clear();
    this.toolLedger.clear();
    this.videoJobs.clear();
    this.counter = 0;
    this.generation++;
    this.feed?.sessionChanged(this.id, 'reset');
  }

  // Scripts indexed by the exact latest user message they require (see Script.userKeys).
  private indexed: readonly Script[] | undefined;
  private anyUser: Script[] = [];
  private byUser = new Map<string, Script[]>();
  private position = new Map<Script, number>();

  /** The scripts that could take this request, in order. */
  scriptsFor(request: ChatRequest): readonly Script[] {
    if (this.indexed !== this.scripts) this.buildIndex();
    if (this.byUser.size === 0) return this.anyUser;
    const latestUser = latestUserText(request);
    const keyed = latestUser === undefined ? undefined : this.byUser.get(latestUser);
    if (!keyed) return this.anyUser;
    if (this.anyUser.length === 0) return keyed;
    const merged = [...this.anyUser, ...keyed];
    merged.sort((a, b) => (this.position.get(a) ?? 0) - (this.position.get(b) ?? 0));
    return merged;
  }

  private buildIndex(): void {
    this.anyUser = [];
    this.byUser = new Map();
    this.position = new Map();
    this.scripts.forEach((script, i) => {
      this.position.set(script, i);
      if (!script.userKeys) {
        this.anyUser.push(script);
        return;
      }
      for (const key of script.userKeys) {
        let list = this.byUser.get(key);
        if (!list) this.byUser.set(key, (list = []));
        list.push(script);
      }
    });
    this.indexed = this.scripts;
  }

  nextId(): string {
    return this.ids.id(++this.counter);
  }

  /** `req_` and the next id; `lastIdNumber` is then its number. */
  nextRequestId(): string {
    return flattened(REQUEST_ID_PREFIX + this.nextId());
  }

  /** The number of the id made last. */
  get lastIdNumber(): number {
    return this.counter;
  }

  /** The request id nextRequestId made from this number: the journal keeps the number instead
   * of the string (see Journal). */
  requestIdOf(n: number): string {
    return REQUEST_ID_PREFIX + this.ids.id(n);
  }

  info(): SessionInfo {
    return {
      id: this.id,
      apiKey: this.apiKey,
      fallback: this.fallback,
      clock: this.clock,
      scripts: this.scripts.map((s) => ({ name: s.name, steps: s.steps.length, replies: s.replies, complete: s.complete })),
    };
  }
}
