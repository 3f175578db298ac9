// The shape of scripts as users write them: fixture files (YAML/JSON), control-API bodies and
// the fluent builder all produce a FixtureSpec. schema/fixtures.schema.json describes the same shape.

import type { JsonValue, Pacing, Reply, Role } from '../core/model.js';

export type ExhaustionPolicy = 'reject' | 'repeat_last' | 'restart';
export type FallbackMode = 'strict' | 'auto';

export interface TextMatchSpec {
  equals?: string;
  contains?: string;
  /** A JavaScript regular expression source, matched without flags unless `flags` is given. */
  matches?: string;
  flags?: string;
}

export interface ToolCallSpec {
  id?: string;
  name: string;
  arguments?: JsonValue;
}

export interface MessageSpec {
  role: Role;
  /** The message text (text parts joined; a tool message's result content). */
  content?: string;
  /** Assistant tool calls in order. In exact matching an absent list means "no tool calls". */
  toolCalls?: ToolCallSpec[];
  /** For tool messages: the call id the result answers. */
  toolCallId?: string;
}

export interface WhenSpec {
  /** Model name, exact, or { matches } for a regex. */
  model?: string | TextMatchSpec;
  latestUser?: string | TextMatchSpec;
  /** A tool result after the latest user message, for this tool name and/or call id. */
  toolResult?: { name?: string; id?: string; content?: JsonValue };
  /** A tool call in the history whose arguments equal this JSON value (structurally). */
  toolArguments?: { name?: string; id?: string; equals: JsonValue };
  /** A JSON path (`$.a.b[0]`) in the latest message's text or latest tool result, parsed as JSON. */
  jsonPath?: { path: string; equals: JsonValue; in?: 'latest' | 'toolResult' };
  /** The whole history (all messages, system included) equals this list. */
  historyExact?: MessageSpec[];
  /** The history contains these messages in this order (not necessarily adjacent). */
  historyContains?: MessageSpec[];
  /** The request declares a tool with this name. */
  hasTool?: string;
  /** The SDK's retry attempt, 0 for the first try (from `x-stainless-retry-count` or
   * `amz-sdk-request`): "fail the first attempt, answer the retry". */
  attempt?: number;
}

export type ReplySpec = Reply;

export interface StepSpec {
  /** Step id; defaults to "step-N" (1-based position). */
  id?: string;
  when?: WhenSpec;
  reply: ReplySpec;
  /** What follows: a step id, a list of step ids (first whose `when` matches wins), or "complete".
   * Defaults to the next step in the list, or "complete" after the last. */
  next?: string | string[];
}

export interface ScenarioSpec {
  name: string;
  /** What happens when a request reaches a completed scenario. Default "reject". */
  exhausted?: ExhaustionPolicy;
  /** Most replies this scenario may give in total (repeats and restarts included). */
  maxReplies?: number;
  steps?: StepSpec[];
  /** Shorthand for a linear queue: each reply becomes a step with no predicates. */
  replies?: ReplySpec[];
  /** Pacing of this scenario's streamed answers (a step's own wins). */
  pacing?: Pacing;
}

export interface FixtureSpec {
  scenarios: ScenarioSpec[];
  session?: { fallback?: FallbackMode; pacing?: Pacing };
}
