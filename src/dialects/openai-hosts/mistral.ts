// Mistral: Chat Completions at `/v1/chat/completions` of its own base URL, with its own request
// members (and none of OpenAI's it does not list), `tool_choice: "any"`, tool call ids of nine
// letters and digits, streamed tool calls whole in one chunk and usage on the chunk that finishes.
// Its errors are {"object":"error","message","type","param","code"}; what its request schema
// refuses (a member's type, range or value, a missing or an unknown member) is a 422 whose message
// is FastAPI's {"detail":[{type, loc, msg}]}.

import { invalidRequest, type NeutralError } from '../../core/errors.js';
import type { ChatRequest, Usage } from '../../core/model.js';
import type { EncodedBody } from '../dialect.js';
import { withExtra } from '../openai/encode-error.js';
import { CHAT_FIELDS } from '../openai-chat/decode-request.js';
import { arrayOf, boolean, DECODED, integer, number, object, oneOf, string, type FieldRule } from '../openai/field-rules.js';
import { isObject } from '../wire-kit/values.js';
import type { JsonObject, OpenAIHost } from './host.js';

/** Mistral's chat request members (its SDK's ChatCompletionRequest). */
const MISTRAL_CHAT_FIELDS: Readonly<Record<string, FieldRule>> = {
  model: DECODED,
  messages: DECODED,
  tools: DECODED,
  tool_choice: DECODED,
  parallel_tool_calls: DECODED,
  response_format: DECODED,
  stream: DECODED,
  n: DECODED,
  max_tokens: DECODED,
  temperature: number(0),
  top_p: number(0, 1),
  stop: CHAT_FIELDS.stop,
  random_seed: integer(0),
  metadata: object({}),
  presence_penalty: number(-2, 2),
  frequency_penalty: number(-2, 2),
  prediction: CHAT_FIELDS.prediction,
  reasoning_effort: oneOf('none', 'minimal', 'low', 'medium', 'high'),
  prompt_mode: oneOf('reasoning'),
  guardrails: arrayOf(object({})),
  prompt_cache_key: string(),
  service_tier: oneOf('auto', 'standard_only'),
  safe_prompt: boolean,
};

/** Mistral's tool call ids: nine letters and digits. */
const TOOL_CALL_ID_LENGTH = 9;

function extraForbidden(key: string): NeutralError {
  return invalidRequest(`Extra inputs are not permitted: '${key}'.`, key, 'unknown_parameter');
}

/** A tool call whose arguments are an object (Mistral takes either), with OpenAI's text instead. */
function withTextArguments(call: unknown): unknown {
  if (!isObject(call) || !isObject(call.function) || !isObject(call.function.arguments)) return call;
  return { ...call, function: { ...call.function, arguments: JSON.stringify(call.function.arguments) } };
}

/** A content chunk in OpenAI's spelling: Mistral's `image_url` may be the URL itself. */
function withImageObject(part: unknown): unknown {
  return isObject(part) && part.type === 'image_url' && typeof part.image_url === 'string'
    ? { ...part, image_url: { url: part.image_url } }
    : part;
}

/** The same list of messages, or a copy with what Mistral spells its own way in OpenAI's terms. */
function inOpenAITerms(messages: unknown[]): unknown[] {
  let copied: unknown[] | undefined;
  messages.forEach((message, i) => {
    if (!isObject(message)) return;
    let changed = message;
    if (Array.isArray(message.tool_calls)) {
      const calls = message.tool_calls.map(withTextArguments);
      if (calls.some((call, j) => call !== (message.tool_calls as unknown[])[j])) changed = { ...changed, tool_calls: calls };
    }
    if (Array.isArray(message.content)) {
      const original = message.content as unknown[];
      // The model's own thinking, sent back in the history (the AI SDK does): read past, as
      // OpenAI's messages have no place for it; what is left may be no content at all.
      const kept = message.role === 'assistant' ? original.filter((part) => !(isObject(part) && part.type === 'thinking')) : original;
      const content = kept.map(withImageObject);
      if (content.length !== original.length || content.some((part, j) => part !== original[j]))
        changed = { ...changed, content: content.length === 0 ? '' : content };
    }
    if (changed === message) return;
    copied ??= messages.slice();
    copied[i] = changed;
  });
  return copied ?? messages;
}

/** The `strict` flags a body sent, by the body handed on without them (see withoutStrict). */
const strictSent = new WeakMap<JsonObject, { output?: boolean; tools: (boolean | undefined)[] }>();

/** Mistral's `strict` (on a JSON schema or a tool) asks its decoder to keep to the schema; it does
 * not carry OpenAI's Structured Outputs rules (every property required, additionalProperties
 * false), which OpenAI's checks apply to a strict schema. The flags go around those checks and
 * come back in `finish`, so the decoded request says what was sent. */
function withoutStrict(body: JsonObject): JsonObject {
  const format = body.response_format;
  const schema = isObject(format) && isObject(format.json_schema) ? format.json_schema : undefined;
  const tools = Array.isArray(body.tools) ? (body.tools as unknown[]) : [];
  const toolStrict = tools.map((t) =>
    isObject(t) && isObject(t.function) && typeof t.function.strict === 'boolean' ? t.function.strict : undefined,
  );
  if (typeof schema?.strict !== 'boolean' && toolStrict.every((f) => f === undefined)) return body;
  const prepared: JsonObject = { ...body };
  if (typeof schema?.strict === 'boolean') {
    const { strict: _strict, ...rest } = schema;
    prepared.response_format = { ...(format as JsonObject), json_schema: rest };
  }
  if (toolStrict.some((f) => f !== undefined)) {
    prepared.tools = tools.map((t, i) => {
      if (toolStrict[i] === undefined || !isObject(t) || !isObject(t.function)) return t;
      const { strict: _strict, ...fn } = t.function;
      return { ...t, function: fn };
    });
  }
  strictSent.set(prepared, { output: typeof schema?.strict === 'boolean' ? schema.strict : undefined, tools: toolStrict });
  return prepared;
}

/** Each role's message members (its SDK's SystemMessage, UserMessage, AssistantMessage,
 * ToolMessage); Mistral refuses any other, as it refuses unknown top-level members. */
const MESSAGE_MEMBERS: Record<string, ReadonlySet<string>> = {
  system: new Set(['role', 'content']),
  user: new Set(['role', 'content']),
  assistant: new Set(['role', 'content', 'tool_calls', 'prefix']),
  tool: new Set(['role', 'content', 'tool_call_id', 'name']),
};

/** A message of a role Mistral has not (OpenAI's `developer`), or with a member its role has not
 * (an OpenAI client's `name` on a user message, `reasoning_content` or `finish_reason` kept in an
 * assistant message of the history): the 422 Mistral answers. */
function messageRefusal(messages: unknown[]): NeutralError | undefined {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (!isObject(message) || typeof message.role !== 'string') continue;
    const members = MESSAGE_MEMBERS[message.role];
    if (!members) {
      return invalidRequest(
        `Input tag '${message.role}' found using 'role' does not match any of the expected tags: 'system', 'user', 'assistant', 'tool'.`,
        `messages[${i}]`,
        'invalid_role',
      );
    }
    for (const key in message)
      if (!members.has(key))
        return invalidRequest(`Extra inputs are not permitted: '${key}'.`, `messages[${i}].${message.role}.${key}`, 'unknown_member');
  }
  return undefined;
}

function prepare(body: JsonObject): JsonObject | NeutralError {
  for (const key in body) if (!Object.hasOwn(MISTRAL_CHAT_FIELDS, key)) return extraForbidden(key);
  let prepared = body;
  if (body.tool_choice === 'any') prepared = { ...prepared, tool_choice: 'required' };
  if (Array.isArray(body.messages)) {
    const refused = messageRefusal(body.messages);
    if (refused) return refused;
    const messages = inOpenAITerms(body.messages);
    if (messages !== body.messages) prepared = { ...prepared, messages };
  }
  return withoutStrict(prepared);
}

function finish(request: ChatRequest, body: JsonObject): ChatRequest {
  request.toolCallIdLength = TOOL_CALL_ID_LENGTH;
  const sent = strictSent.get(body);
  if (sent) {
    if (sent.output !== undefined && request.output.type === 'json_schema') request.output = { ...request.output, strict: sent.output };
    request.tools = request.tools.map((tool, i) => (sent.tools[i] === undefined ? tool : { ...tool, strict: sent.tools[i] }));
  }
  return request;
}

// ------------------------------------------------------------------ 422 or 400

/** The pydantic error type of each refusal Mistral's request schema makes (a 422). */
const SCHEMA_REFUSALS: Record<string, string> = {
  invalid_type: 'type_error',
  missing_required_parameter: 'missing',
  unknown_parameter: 'extra_forbidden',
  unknown_member: 'extra_forbidden',
  invalid_role: 'union_tag_invalid',
  invalid_value: 'enum',
  integer_below_min_value: 'greater_than_equal',
  decimal_below_min_value: 'greater_than_equal',
  integer_above_max_value: 'less_than_equal',
  decimal_above_max_value: 'less_than_equal',
  empty_string: 'string_too_short',
  string_below_min_length: 'string_too_short',
  string_above_max_length: 'string_too_long',
  empty_array: 'too_short',
  array_below_min_length: 'too_short',
  array_above_max_length: 'too_long',
};

/** pydantic's wording where it is one fixed sentence; other refusals keep Understudy's. */
const PYDANTIC_WORDS: Record<string, string> = {
  missing: 'Field required',
  extra_forbidden: 'Extra inputs are not permitted',
};

/** The type error of a value that should have been `expected` (OpenAI's wording names it). */
const TYPE_ERRORS: [RegExp, string][] = [
  [/expected a decimal/, 'float_type'],
  [/expected an integer/, 'int_type'],
  [/expected a string/, 'string_type'],
  [/expected a boolean/, 'bool_type'],
  [/expected an array/, 'list_type'],
  [/expected an object/, 'dict_type'],
];

function schemaTypeOf(error: NeutralError): string | undefined {
  const type = error.code === null ? undefined : SCHEMA_REFUSALS[error.code];
  if (type !== 'type_error') return type;
  for (const [pattern, name] of TYPE_ERRORS) if (pattern.test(error.message)) return name;
  return type;
}

/** A refusal of the request schema is Mistral's 422; every other refusal stays a 400. */
function refusal(error: NeutralError): NeutralError {
  return error.kind === 'invalid_request' && error.param && schemaTypeOf(error) ? { ...error, status: 422 } : error;
}

/** `messages[0].content` (or OpenAI's `messages.[0].role`) as FastAPI's loc: body, messages, 0, content. */
function locOf(param: string | null | undefined): (string | number)[] {
  const loc: (string | number)[] = ['body'];
  if (!param) return loc;
  for (const piece of param.split(/\.|\[|\]/)) {
    if (piece === '') continue;
    loc.push(/^\d+$/.test(piece) ? Number(piece) : piece);
  }
  return loc;
}

/** Where a 422's detail says the refusal is: an unknown top-level member named whole (dots and
 * brackets included), any other param as its path (an unknown message member's param holds its
 * role, as pydantic's loc does: body, messages, 0, user, name). */
function locFor(error: NeutralError): (string | number)[] {
  return error.code === 'unknown_parameter' ? ['body', error.param ?? ''] : locOf(error.param);
}

// ------------------------------------------------------------------ the error body

function typeFor(error: NeutralError): string {
  if (error.type) return error.type;
  switch (error.kind) {
    case 'no_match':
    case 'exhausted':
    case 'mismatch':
    case 'superseded':
      return 'understudy_error';
    default:
      break;
  }
  if (error.status === 429) return 'rate_limited';
  if (error.status >= 500) return 'internal_server_error';
  return 'invalid_request_error';
}

function errorObject(error: NeutralError): JsonObject {
  if (error.status === 422 && error.kind === 'invalid_request') {
    const type = schemaTypeOf(error) ?? 'value_error';
    const loc = locFor(error);
    const detail = { type, loc, msg: PYDANTIC_WORDS[type] ?? error.message };
    return { object: 'error', message: { detail: [detail] }, type: 'invalid_request_error', param: null, code: null };
  }
  return withExtra(
    { object: 'error', message: error.message, type: typeFor(error), param: error.param ?? null, code: error.code ?? null },
    error,
  );
}

function encodeMistralError(error: NeutralError): EncodedBody {
  return {
    status: error.status,
    headers: { 'content-type': 'application/json', ...(error.headers ?? {}) },
    body: JSON.stringify(errorObject(error)),
  };
}

// ------------------------------------------------------------------ answers

function usageOf(usage: Usage): JsonObject {
  return { prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens, total_tokens: usage.inputTokens + usage.outputTokens };
}

/** Drops what OpenAI's answers carry and Mistral's do not. */
function trimmed(data: JsonObject): void {
  delete data.service_tier;
  delete data.system_fingerprint;
  for (const choice of data.choices as JsonObject[]) {
    delete choice.logprobs;
    const message = (choice.message ?? choice.delta) as JsonObject | undefined;
    if (!message) continue;
    delete message.refusal;
    delete message.annotations;
  }
}

function thinkingChunk(reasoning: string): JsonObject {
  return { type: 'thinking', thinking: [{ type: 'text', text: reasoning }] };
}

export const mistral: OpenAIHost = {
  id: 'mistral',
  name: 'Mistral',
  chat: {
    paths: ['/mistral/v1/chat/completions'],
    fields: MISTRAL_CHAT_FIELDS,
    prepare,
    finish,
    refusal,
    wholeToolCalls: true,
    answer(answer, reply) {
      trimmed(answer);
      answer.usage = usageOf(reply.usage);
      // Reasoning models (Magistral) answer with a thinking chunk before the text.
      if (reply.reasoning !== null) {
        const message = (answer.choices as JsonObject[])[0].message as JsonObject;
        message.content = [thinkingChunk(reply.reasoning), ...(message.content === null ? [] : [{ type: 'text', text: message.content }])];
      }
    },
    streamError(_error, ctx) {
      // Mistral's SDK validates every chunk as a completion chunk, so an error chunk of OpenAI's
      // shape would reach the caller as a validation failure: the stream ends as Mistral ends a
      // failed generation, with finish_reason "error" (the error itself is journalled).
      return {
        id: ctx.responseId,
        object: 'chat.completion.chunk',
        created: ctx.created,
        model: ctx.model,
        choices: [{ index: 0, delta: {}, finish_reason: 'error' }],
      };
    },
    event(data, place, reply) {
      trimmed(data);
      // The whole thinking rides on the first chunk, before any text.
      if (place.index === 0 && reply.reasoning !== null)
        ((data.choices as JsonObject[])[0].delta as JsonObject).content = [thinkingChunk(reply.reasoning)];
      const choice = (data.choices as JsonObject[])[0];
      if (choice !== undefined && choice.finish_reason !== null) data.usage = usageOf(reply.usage);
    },
  },
  providerPaths: { mistral: '/mistral', 'mistral-v1': '/mistral/v1' },
  encodeError: encodeMistralError,
};
