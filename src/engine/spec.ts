// The shape of scripts as users write them: fixture files (YAML/JSON), control-API bodies and
// the fluent builder all produce a FixtureSpec. The types are inferred from the format's one
// description (fixture-schema.ts; its field descriptions say what each field means), which also
// gives the checks and schema/fixtures.schema.json.

import type { z } from 'zod';
import type { Pacing, Reply, ScriptedError, ScriptedToolCall, StreamFault } from '../core/model.js';
import type { FixtureFormat } from './fixture-schema.js';

type Described<K extends keyof FixtureFormat> = z.output<FixtureFormat[K]>;

// What files, control-API bodies and load() values hold: a reply's tool call may name a preset.
export type FixtureInput = Omit<Described<'fixture'>, '$schema'>;
export type ScenarioInput = Described<'scenario'>;
export type StepInput = Described<'step'>;
export type ReplyInput = Described<'reply'>;

// What a checked script is (fixture-file.ts spells preset calls out, fixture-presets.ts): its
// replies are core's Reply, every tool call naming its tool.
export type StepSpec = Omit<StepInput, 'reply'> & { reply: Reply };
export type ScenarioSpec = Omit<ScenarioInput, 'steps' | 'replies'> & { steps?: StepSpec[]; replies?: Reply[] };
export type WhenSpec = Described<'when'>;
export type TextMatchSpec = Described<'textMatch'>;
export type ScriptedVectorSpec = Described<'scriptedVector'>;
export type ScriptedImageSpec = Described<'scriptedImage'>;
export type ScriptedSpeechSpec = Described<'scriptedSpeech'>;
export type ScriptedTranscriptSpec = Described<'scriptedTranscript'>;
export type ScriptedVideoSpec = Described<'scriptedVideo'>;
export type VideoCapacitySpec = Described<'videoCapacity'>;
export type MessageSpec = Described<'message'>;
/** A recorded step's `recorded` member (what went upstream, the shape of what came back) and its shape. */
export type RecordedSpec = Described<'recorded'>;
export type AnswerShapeSpec = Described<'answerShape'>;
/** A tool call in a history condition (a scripted reply's calls are core's ScriptedToolCall). */
export type ToolCallSpec = Described<'messageToolCall'>;
export type ExhaustionPolicy = NonNullable<ScenarioSpec['exhausted']>;
export type FallbackMode = NonNullable<NonNullable<FixtureSpec['session']>['fallback']>;
/** What a checked file holds: `$schema`, for editors only, is dropped on loading. */
export type FixtureSpec = Omit<FixtureInput, 'scenarios'> & { scenarios: ScenarioSpec[] };

/** Replies are core's Reply (the engine and dialects use it); the description must agree with it. */
export type ReplySpec = Reply;

// Compile-time checks: the core records a script's replies become are exactly what the
// description infers (a preset call aside, which becomes a plain call). A field added to one and
// not the other fails `npm run typecheck` here.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Agree<T extends true> = T;
export type DescriptionAgreesWithCore = [
  Agree<Same<Omit<Described<'reply'>, 'toolCalls'>, Omit<Reply, 'toolCalls'>>>,
  Agree<Same<NonNullable<Described<'reply'>['toolCalls']>, Described<'toolCall'>[]>>,
  Agree<Same<Described<'pacing'>, Pacing>>,
  Agree<Same<Described<'fault'>, StreamFault>>,
  Agree<Same<Described<'error'>, ScriptedError>>,
  Agree<Same<Omit<Described<'toolCall'>, 'name' | 'preset'>, Omit<ScriptedToolCall, 'name'>>>,
  Agree<Same<Described<'toolCall'>['name'], ScriptedToolCall['name'] | undefined>>,
];
