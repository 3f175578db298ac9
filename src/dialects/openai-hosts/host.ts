// A host of the OpenAI dialects (Azure, Groq, Mistral, OpenRouter …) is a row of rules over Chat
// Completions and Responses, not a copy of either: where its requests arrive, what it checks
// before and after OpenAI's own checks, what it adds to OpenAI's answers, and its error body.
// host-dialect.ts turns a row into the dialects the route table serves.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest, ResolvedReply } from '../../core/model.js';
import type { DialectEncodeContext, EncodedBody, WireContext } from '../dialect.js';
import type { FieldRule } from '../openai/field-rules.js';
import type { OpenAIModelsOptions } from '../openai/models.js';

export type JsonObject = Record<string, unknown>;

/** Where a stream event sits in its stream, for a rule that changes the first or the last. */
export interface EventPlace {
  index: number;
  count: number;
}

/**
 * What a host changes in one operation (its Chat Completions or its Responses). Each rule is
 * optional: left out, the host does what OpenAI does. Rules are pure functions of their arguments,
 * like the encoders they wrap: answers to a repeated request are built from a template of an
 * earlier one, so a rule reads no clock and no session.
 */
export interface HostOperation {
  /** Route paths (`{name}` segments allowed); each also answers under a session prefix. */
  paths: readonly string[];
  /** Request headers the rules read besides the base dialect's (a decode sees only those). */
  headers?: readonly string[];
  /** Before OpenAI's checks: refuse with a neutral error, or hand the body on (rewritten where the
   * host spells a field its own way, e.g. Mistral's `tool_choice: "any"`). */
  prepare?(body: JsonObject, wire: WireContext): JsonObject | NeutralError;
  /** The host's request members, each with its check (Chat Completions): the whole table, in place
   * of OpenAI's CHAT_FIELDS (spread it to add members, as Groq does; list your own to refuse
   * OpenAI's, as Mistral does). */
  fields?: Readonly<Record<string, FieldRule>>;
  /** After OpenAI's checks: e.g. the model named by the path when the body names none. */
  finish?(request: ChatRequest, body: JsonObject, wire: WireContext): ChatRequest | NeutralError;
  /** Any refusal of the checks above, restated as the host answers it (e.g. Mistral's 422 for what
   * its request schema refuses). */
  refusal?(error: NeutralError): NeutralError;
  /** Streamed tool calls each in one event, whole, as the host sends them (Mistral). */
  wholeToolCalls?: boolean;
  /** OpenAI's JSON answer, changed in place (extra members, e.g. Groq's `x_groq`). */
  answer?(answer: JsonObject, reply: ResolvedReply, request: ChatRequest, ctx: DialectEncodeContext): void;
  /** Whether `leadingEvents` and `event` apply to this request's stream (left out: always). A
   * stream they leave alone is OpenAI's as it is, with no event parsed again. */
  rewritesStream?(request: ChatRequest): boolean;
  /** An SSE comment sent before every other event, e.g. OpenRouter's keep-alive
   * `: OPENROUTER PROCESSING`: SSE readers must skip it, hand-written parsers often do not. */
  streamComment?: string;
  /** Events sent before OpenAI's first (their `data`), e.g. Azure's prompt-filter chunk. */
  leadingEvents?(reply: ResolvedReply, request: ChatRequest, ctx: DialectEncodeContext): JsonObject[];
  /** One of OpenAI's stream events (its `data`), changed in place; false drops the event, and a
   * list is sent in its place (the event itself among them where the host keeps it). */
  event?(
    data: JsonObject,
    place: EventPlace,
    reply: ResolvedReply,
    request: ChatRequest,
    ctx: DialectEncodeContext,
  ): boolean | void | readonly JsonObject[];
  /** Which of OpenAI's stream events `event` may change, judged from the framed event; the others
   * are sent as they are, never parsed (every event goes to `event` when left out). */
  touches?(framed: string, place: EventPlace): boolean;
  /** The host's in-stream error event (its `data`), where it is not OpenAI's: it replaces OpenAI's
   * last event of a failing stream and the event a fault of kind `error` writes, and the stream
   * then ends with `data: [DONE]` (Mistral ends it with a chunk whose finish_reason is "error"). */
  streamError?(error: NeutralError, ctx: DialectEncodeContext): JsonObject;
}

export interface OpenAIHost {
  /** Short id: the first part of its operation ids (`groq.chat.completions`) and its `mock.url` name. */
  id: string;
  /** The host's name, for docs and messages. */
  name: string;
  chat?: HostOperation;
  responses?: HostOperation;
  /** Base URLs the client helpers offer (`mock.url(name)`), as paths after the origin. */
  providerPaths: Record<string, string>;
  /** The host's error body; OpenAI's when left out. */
  encodeError?(error: NeutralError): EncodedBody;
  /** Its model list, from the session's catalogue (src/dialects/openai/models.ts); none when left out. */
  models?: HostModels;
}

export interface HostModels extends Omit<OpenAIModelsOptions, 'encodeError'> {
  /** Where the list is (`GET {path}`); each also answers `GET {path}/{model}` unless `list` only. */
  paths: readonly string[];
  /** Only the list: the host serves no route for one model. */
  listOnly?: boolean;
}
