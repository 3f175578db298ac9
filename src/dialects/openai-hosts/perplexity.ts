// Perplexity Sonar: Chat Completions at `/chat/completions` (and `/v1/…`) of its base URL, with
// its search members (`search_mode`, `search_domain_filter`, `web_search_options` …) checked and
// accepted. Function tools are not claimed and are refused; structured output is
// `response_format: json_schema`, whose `name` Perplexity does not require. A script's
// `citations` and `search_results` (Reply.hostFields) ride on the answer and on a stream's first
// and last chunks, and
// a scripted reasoning opens the content as a <think> section, as Perplexity's reasoning models
// write it.
// Errors are `{"error":{"message","type","code":<status>}}`.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest, Message, ResolvedReply } from '../../core/model.js';
import type { EncodedBody } from '../dialect.js';
import { fail } from '../openai/checks.js';
import { arrayOf, boolean, integer, number, object, oneOf, string, type FieldRule } from '../openai/field-rules.js';
import { CHAT_FIELDS } from '../openai-chat/decode-request.js';
import { given, isObject } from '../wire-kit/values.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import { errorTypeOf, type ErrorTypeNames } from '../openai/encode-error.js';
import { addHostFields } from './host-fields.js';
import type { JsonObject, OpenAIHost } from './host.js';

const strings = arrayOf(string(), { wording: 'an array of strings' });
const DATE = /^\d{1,2}\/\d{1,2}\/\d{4}$/;
/** Perplexity's date filters: `%m/%d/%Y` (e.g. 3/1/2025). */
const date: FieldRule = (v, p) => {
  string()(v, p);
  if (!DATE.test(v as string)) fail(`Invalid '${p}': expected a date in the format %m/%d/%Y (e.g. 3/1/2025); got '${String(v)}'.`, p);
};

/** Perplexity's own request members (its OpenAPI document), besides OpenAI's. */
const PERPLEXITY_FIELDS: Readonly<Record<string, FieldRule>> = {
  search_mode: oneOf('web', 'academic', 'sec'),
  search_domain_filter: arrayOf(string(), { max: 20, wording: 'an array of strings' }),
  search_language_filter: arrayOf(string(), { max: 10, wording: 'an array of strings' }),
  search_recency_filter: oneOf('hour', 'day', 'week', 'month', 'year'),
  search_after_date_filter: date,
  search_before_date_filter: date,
  last_updated_after_filter: date,
  last_updated_before_filter: date,
  return_images: boolean,
  return_related_questions: boolean,
  image_domain_filter: strings,
  image_format_filter: strings,
  disable_search: boolean,
  enable_search_classifier: boolean,
  language_preference: string(),
  top_k: integer(0),
  stream_mode: oneOf('full', 'concise'),
  reasoning_effort: oneOf('minimal', 'low', 'medium', 'high'),
  web_search_options: object({
    search_context_size: oneOf('low', 'medium', 'high'),
    search_type: oneOf('fast', 'pro', 'auto'),
    image_results_enhanced_relevance: boolean,
    user_location: object({ country: string(), region: string(), city: string(), latitude: number(-90, 90), longitude: number(-180, 180) }),
  }),
};

const FIELDS = { ...CHAT_FIELDS, ...PERPLEXITY_FIELDS };

const NO_TOOLS = ['tools', 'tool_choice', 'functions', 'function_call'];

/** Bodies whose json_schema had no name: OpenAI's decoder wants one, the journal should show none. */
const unnamed = new WeakSet<object>();

function prepare(body: JsonObject): JsonObject | NeutralError {
  return refusalOr(() => {
    for (const key of NO_TOOLS) if (given(body[key])) fail('Tool calling is not supported for this model.', key);
    const format = body.response_format;
    if (!isObject(format)) return body;
    if (format.type === 'regex') {
      fail(
        `Understudy does not check output against a regular expression ('response_format' of type 'regex'): use 'json_schema', or no 'response_format', and script the text.`,
        'response_format.type',
      );
    }
    if (format.type === 'json_object')
      fail(`Invalid value: 'json_object'. Supported values are: 'text', 'json_schema', and 'regex'.`, 'response_format.type');
    if (format.type !== 'json_schema' || !isObject(format.json_schema) || given(format.json_schema.name)) return body;
    const named = { ...body, response_format: { ...format, json_schema: { ...format.json_schema, name: 'schema' } } };
    unnamed.add(named);
    return named;
  });
}

/** Perplexity's rule on the order of turns: system messages first, then user (or tool) and assistant by turns. */
function checkTurns(messages: Message[]): void {
  let expectUser = true;
  let index = 0;
  while (index < messages.length && messages[index].role === 'system') index++;
  for (; index < messages.length; index++) {
    const role = messages[index].role;
    const user = role === 'user' || role === 'tool';
    if (role === 'system' || user !== expectUser) {
      fail('After the (optional) system message(s), user or tool message(s) should alternate with assistant message(s).', 'messages');
    }
    expectUser = !expectUser;
  }
}

/** Perplexity's roles are system, user, assistant and tool: OpenAI's `developer` is not one. */
function checkRoles(messages: unknown): void {
  if (!Array.isArray(messages)) return;
  messages.forEach((message, i) => {
    if (isObject(message) && message.role === 'developer')
      fail(`messages.${i}.role: Input should be 'system', 'user', 'assistant' or 'tool'.`, `messages[${i}].role`);
  });
}

/** Perplexity's floor on the answer's length (observed for sonar, applied to every model). */
const MIN_MAX_TOKENS = 16;

function finish(request: ChatRequest, body: JsonObject): ChatRequest | NeutralError {
  return refusalOr(() => {
    checkRoles(body.messages);
    checkTurns(request.messages);
    if (request.maxOutputTokens !== undefined && request.maxOutputTokens < MIN_MAX_TOKENS) {
      const param = given(body.max_tokens) ? 'max_tokens' : 'max_completion_tokens';
      fail(`${param} must be at least ${MIN_MAX_TOKENS} for ${request.model}.`, param);
    }
    if (unnamed.has(body) && request.output.type === 'json_schema') {
      const { name: _name, ...output } = request.output;
      request.output = output;
    }
    // Perplexity's streams end with a usage record whether or not it was asked for.
    request.streamUsage = request.stream;
    return request;
  });
}

/** A script's host fields, and the search members Perplexity always sends: with no search run,
 * no citations and no results, unless the script gives them. */
function addSearchMembers(target: JsonObject, reply: ResolvedReply): void {
  addHostFields(target, reply);
  if (!Object.hasOwn(target, 'citations')) target.citations = [];
  if (!Object.hasOwn(target, 'search_results')) target.search_results = [];
}

/** Perplexity's reasoning models write their reasoning into the content, in a <think> section
 * before the answer (structured output too: a client must cut it off before parsing the JSON). */
function thinking(reasoning: string): string {
  return `<think>${reasoning}</think>`;
}

/** Usage members Perplexity adds: no search ran, nothing was charged. */
function addSearchUsage(usage: JsonObject): void {
  usage.citation_tokens = 0;
  usage.num_search_queries = 0;
  usage.cost = { input_tokens_cost: 0, output_tokens_cost: 0, request_cost: 0, total_cost: 0 };
}

const PERPLEXITY_TYPES: ErrorTypeNames = {
  unauthorized: 'authentication_error',
  rateLimited: 'rate_limit_exceeded',
  server: 'internal_server_error',
  otherwise: 'invalid_parameter',
};

export function encodePerplexityError(error: NeutralError): EncodedBody {
  const body = { error: { message: error.message, type: errorTypeOf(error, PERPLEXITY_TYPES), code: error.status } };
  return { status: error.status, headers: { 'content-type': 'application/json', ...(error.headers ?? {}) }, body: JSON.stringify(body) };
}

export const perplexity: OpenAIHost = {
  id: 'perplexity',
  name: 'Perplexity Sonar',
  chat: {
    paths: ['/perplexity/chat/completions', '/perplexity/v1/chat/completions'],
    prepare,
    fields: FIELDS,
    finish,
    answer(answer, reply) {
      addSearchMembers(answer, reply);
      if (reply.reasoning !== null) {
        const message = (answer.choices as JsonObject[])[0].message as JsonObject;
        message.content = thinking(reply.reasoning) + ((message.content as string | null) ?? '');
      }
      addSearchUsage(answer.usage as JsonObject);
    },
    event(data, place, reply) {
      // On the first chunk and the last (usage) one: on every chunk, a long stream would carry the
      // script's members once per piece.
      if (place.index === 0 || data.usage) addSearchMembers(data, reply);
      // The first chunk (the role's, with empty content) carries the whole <think> section.
      if (place.index === 0 && reply.reasoning !== null)
        ((data.choices as JsonObject[])[0].delta as JsonObject).content = thinking(reply.reasoning);
      if (data.usage) addSearchUsage(data.usage as JsonObject);
    },
  },
  providerPaths: { perplexity: '/perplexity' },
  encodeError: encodePerplexityError,
};
