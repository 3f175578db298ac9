// The shape of scripts as users write them: fixture files (YAML/JSON), control-API bodies and
// the fluent builder all produce a FixtureSpec. The types are inferred from the format's one
// description (fixture-schema.ts; its field descriptions say what each field means), which also
// gives the checks and schema/fixtures.schema.json.

import type { z } from 'zod';
import type { Pacing, Reply, ScriptedError, ScriptedToolCall, StreamFault } from '../core/model.js';
import type { FixtureFormat } from './fixture-schema.js';

type Described<K extends keyof FixtureFormat> = z.output<FixtureFormat[K]>;

export type ScenarioSpec = Described<'scenario'>;
export type StepSpec = Described<'step'>;
export type WhenSpec = Described<'when'>;
export type TextMatchSpec = Described<'textMatch'>;
export type MessageSpec = Described<'message'>;
/** A tool call in a history condition (a scripted reply's calls are core's ScriptedToolCall). */
export type ToolCallSpec = Described<'messageToolCall'>;
export type ExhaustionPolicy = NonNullable<ScenarioSpec['exhausted']>;
export type FallbackMode = NonNullable<NonNullable<FixtureSpec['session']>['fallback']>;
/** What a checked file holds: `$schema`, for editors only, is dropped on loading. */
export type FixtureSpec = Omit<Described<'fixture'>, '$schema'>;

/** Replies are core's Reply (the engine and dialects use it); the description must agree with it. */
export type ReplySpec = Reply;

// Compile-time checks: the core records a script's replies become are exactly what the
// description infers. A field added to one and not the other fails `npm run typecheck` here.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Agree<T extends true> = T;
export type DescriptionAgreesWithCore = [
  Agree<Same<Described<'reply'>, Reply>>,
  Agree<Same<Described<'pacing'>, Pacing>>,
  Agree<Same<Described<'fault'>, StreamFault>>,
  Agree<Same<Described<'error'>, ScriptedError>>,
  Agree<Same<Described<'toolCall'>, ScriptedToolCall>>,
];
