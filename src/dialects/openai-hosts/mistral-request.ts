// What Mistral's chat route checks and rewrites before OpenAI's checks (and restores after them):
// its own list of request members and of message members per role, `tool_choice: "any"`, what
// its SDK spells its own way (object arguments, an image URL as a string, thinking chunks sent
// back), and `strict` without OpenAI's Structured Outputs rules.

import { invalidRequest, type NeutralError } from '../../core/errors.js';
import type { ChatRequest } from '../../core/model.js';
import { CHAT_FIELDS } from '../openai-chat/decode-request.js';
import { arrayOf, boolean, DECODED, integer, number, object, oneOf, string, type FieldRule } from '../openai/field-rules.js';
import { isObject } from '../wire-kit/values.js';
import type { JsonObject } from './host.js';

/** Mistral's chat request members (its SDK's ChatCompletionRequest). */
export const MISTRAL_CHAT_FIELDS: Readonly<Record<string, FieldRule>> = {
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

export function prepareMistralChat(body: JsonObject): JsonObject | NeutralError {
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

export function finishMistralChat(request: ChatRequest, body: JsonObject): ChatRequest {
  request.toolCallIdLength = TOOL_CALL_ID_LENGTH;
  const sent = strictSent.get(body);
  if (sent) {
    if (sent.output !== undefined && request.output.type === 'json_schema') request.output = { ...request.output, strict: sent.output };
    request.tools = request.tools.map((tool, i) => (sent.tools[i] === undefined ? tool : { ...tool, strict: sent.tools[i] }));
  }
  return request;
}
