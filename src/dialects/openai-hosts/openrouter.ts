// OpenRouter: Chat Completions at `/api/v1/chat/completions` and a stateless Responses API at
// `/api/v1/responses` of its base URL. Its request members (`models` fallbacks, `provider`
// routing, `reasoning`, `plugins` …) are checked and accepted; answers name the provider that
// served them, each choice carries `native_finish_reason` (and a scripted reasoning as
// `reasoning`), and usage (always sent, streams too) carries `cost`. Errors are
// `{"error":{"code":<status>,"message","metadata"?}}`.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest, ResolvedReply } from '../../core/model.js';
import type { EncodedBody } from '../dialect.js';
import { expectNumber, expectString, fail } from '../openai/checks.js';
import { arrayOf, boolean, integer, number, object, oneOf, string, type FieldRule } from '../openai/field-rules.js';
import { CHAT_FIELDS } from '../openai-chat/decode-request.js';
import { given, isObject } from '../wire-kit/values.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import { addHostFields } from './host-fields.js';
import type { JsonObject, OpenAIHost } from './host.js';

/** The comment OpenRouter's streams carry to keep the connection open while the model starts. */
const KEEP_ALIVE = 'OPENROUTER PROCESSING';

/** Who served the answer, unless the script names one (`hostFields.provider`). */
const PROVIDER = 'Understudy';

const strings = arrayOf(string(), { wording: 'an array of strings' });
/** A price in USD: OpenRouter's document says a string; a number is read the same. */
const price: FieldRule = (v, p) => void (typeof v === 'number' ? expectNumber(v, p, { min: 0 }) : expectString(v, p));

const SORT_BY = oneOf('price', 'throughput', 'latency');
const SORT = object({ by: SORT_BY, partition: oneOf('model', 'none') });

/** The plugins OpenRouter's document lists (its `plugins` items are told apart by `id`). */
const PLUGIN_ID = oneOf(
  'auto-router',
  'auto-beta-router',
  'moderation',
  'web',
  'web-fetch',
  'file-parser',
  'response-healing',
  'context-compression',
  'pareto-router',
  'fusion',
);

/** OpenRouter's members that both of its operations accept (its OpenAPI document). */
const SHARED_FIELDS: Readonly<Record<string, FieldRule>> = {
  models: strings,
  provider: object({
    allow_fallbacks: boolean,
    require_parameters: boolean,
    data_collection: oneOf('allow', 'deny'),
    zdr: boolean,
    enforce_distillable_text: boolean,
    order: strings,
    only: strings,
    ignore: strings,
    quantizations: arrayOf(oneOf('int4', 'int8', 'fp4', 'fp6', 'fp8', 'fp16', 'bf16', 'fp32', 'unknown'), {
      wording: 'an array of strings',
    }),
    sort: (v, p) => (typeof v === 'string' ? SORT_BY(v, p) : SORT(v, p)),
    max_price: object({ prompt: price, completion: price, image: price, audio: price, request: price }),
  }),
  plugins: arrayOf(object({ id: PLUGIN_ID }, ['id']), { wording: 'an array of objects' }),
  transforms: strings,
  route: oneOf('fallback', 'sort'),
  usage: object({ include: boolean }),
  session_id: string(256),
  trace: object({ trace_id: string(), trace_name: string(), span_name: string(), generation_name: string(), parent_span_id: string() }),
  top_k: integer(0),
  min_p: number(0, 1),
  top_a: number(0, 1),
  repetition_penalty: number(0, 2),
  debug: object({ echo_upstream_body: boolean }),
};

const REASONING = object({
  effort: oneOf('max', 'xhigh', 'high', 'medium', 'low', 'minimal', 'none'),
  max_tokens: integer(0),
  exclude: boolean,
  enabled: boolean,
  summary: oneOf('auto', 'concise', 'detailed'),
});

const CHAT = {
  ...CHAT_FIELDS,
  ...SHARED_FIELDS,
  reasoning: REASONING,
  include_reasoning: boolean,
  cache_control: object({ type: oneOf('ephemeral'), ttl: oneOf('5m', '1h') }, ['type']),
  // OpenRouter routes to image models too; Understudy answers text (as OpenAI's `audio`).
  modalities: arrayOf(oneOf('text', 'image', 'audio'), { wording: 'an array of strings' }),
  image_config: object({}),
};

/** OpenRouter names the model from `models` when the body names none. */
function modelFromModels(body: JsonObject): JsonObject {
  if (given(body.model) || !Array.isArray(body.models) || typeof body.models[0] !== 'string') return body;
  return { ...body, model: body.models[0] };
}

function stateless(body: JsonObject): JsonObject | NeutralError {
  return refusalOr(() => {
    if (body.store === true) {
      fail(
        `OpenRouter's Responses API is stateless: it stores no response, so 'store' must be false or left out. Send the whole conversation in 'input'.`,
        'store',
      );
    }
    if (given(body.previous_response_id)) {
      fail(
        `OpenRouter's Responses API is stateless: 'previous_response_id' is not supported. Send the whole conversation in 'input'.`,
        'previous_response_id',
      );
    }
    // OpenAI's Responses decoder reads OpenAI's members; OpenRouter's own are checked here and
    // handed on without them.
    const rest: JsonObject = { ...modelFromModels(body) };
    for (const key in SHARED_FIELDS) {
      if (!(key in rest)) continue;
      if (given(rest[key])) SHARED_FIELDS[key](rest[key], key);
      delete rest[key];
    }
    if (rest.store === undefined) rest.store = false;
    return rest;
  });
}

/** Usage members OpenRouter adds: what the request cost (nothing: Understudy charges nothing). */
function addCost(usage: JsonObject): void {
  usage.cost = 0;
  usage.is_byok = false;
  usage.cost_details = { upstream_inference_cost: null, upstream_inference_prompt_cost: 0, upstream_inference_completions_cost: 0 };
}

/** A Responses object's OpenRouter members: a script's host fields, and the cost in its usage. */
function addResponseMembers(response: JsonObject, reply: ResolvedReply): void {
  addHostFields(response, reply);
  const usage = response.usage;
  if (!isObject(usage)) return;
  usage.cost = 0;
  usage.is_byok = false;
  usage.cost_details = { upstream_inference_cost: null, upstream_inference_input_cost: 0, upstream_inference_output_cost: 0 };
}

function addProvider(target: JsonObject, reply: ResolvedReply): void {
  addHostFields(target, reply);
  if (!Object.hasOwn(target, 'provider')) target.provider = PROVIDER;
}

/** A chunk's OpenRouter members: the provider on every chunk; a script's host fields on the first
 * and the last (usage) chunk only, or a long stream would carry them once per piece. */
function addChunkProvider(data: JsonObject, first: boolean, reply: ResolvedReply): void {
  if (first || data.usage) addHostFields(data, reply);
  if (!Object.hasOwn(data, 'provider')) data.provider = reply.hostFields?.provider ?? PROVIDER;
}

/** OpenRouter's canonical error type (`metadata.error_type`) for an HTTP status. */
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request',
  401: 'authentication',
  402: 'payment_required',
  403: 'permission_denied',
  404: 'not_found',
  408: 'timeout',
  413: 'payload_too_large',
  422: 'unprocessable',
  429: 'rate_limit_exceeded',
  502: 'provider_unavailable',
  503: 'provider_overloaded',
};

function errorTypeOf(error: NeutralError): string | undefined {
  if (error.type) return error.type;
  // Understudy's own refusals (no script matches, a reply breaking the contract) have none.
  if (error.status === 409) return undefined;
  return ERROR_TYPES[error.status] ?? (error.status >= 500 ? 'server' : undefined);
}

/** Status and message in OpenRouter's body; its error type, and the code and param of the
 * refusal when known, in `metadata`. */
export function encodeOpenRouterError(error: NeutralError): EncodedBody {
  const metadata: JsonObject = {};
  const type = errorTypeOf(error);
  if (type !== undefined) metadata.error_type = type;
  if (error.code) metadata.code = error.code;
  if (error.param) metadata.param = error.param;
  const body = { error: { code: error.status, message: error.message, ...(Object.keys(metadata).length > 0 && { metadata }) } };
  return { status: error.status, headers: { 'content-type': 'application/json', ...(error.headers ?? {}) }, body: JSON.stringify(body) };
}

/** Requests that asked for the reasoning to be left out of the answer (`reasoning.exclude`). */
const reasoningHidden = new WeakSet<ChatRequest>();

function finishChat(request: ChatRequest, body: JsonObject): ChatRequest | NeutralError {
  return refusalOr(() => {
    const reasoning = body.reasoning as JsonObject | undefined;
    // `reasoning_effort` is a shorthand for `reasoning.effort`, and may not contradict it.
    if (given(body.reasoning_effort) && given(reasoning?.effort) && body.reasoning_effort !== reasoning?.effort) {
      fail(
        `'reasoning_effort' ('${String(body.reasoning_effort)}') and 'reasoning.effort' ('${String(reasoning?.effort)}') differ; send one, or the same value in both.`,
        'reasoning_effort',
      );
    }
    // OpenRouter always sends usage; stream_options.include_usage has no effect there.
    request.streamUsage = request.stream;
    if (reasoning?.exclude === true || body.include_reasoning === false) reasoningHidden.add(request);
    return request;
  });
}

/** A scripted reasoning as OpenRouter gives it: `reasoning` text and one `reasoning_details` entry. */
function addReasoning(message: JsonObject, reply: ResolvedReply, request: ChatRequest): void {
  if (reply.reasoning === null || reasoningHidden.has(request)) return;
  message.reasoning = reply.reasoning;
  message.reasoning_details = [{ type: 'reasoning.text', text: reply.reasoning, format: 'unknown', index: 0 }];
}

export const openrouter: OpenAIHost = {
  id: 'openrouter',
  name: 'OpenRouter',
  chat: {
    paths: ['/openrouter/api/v1/chat/completions'],
    prepare: modelFromModels,
    streamComment: KEEP_ALIVE,
    fields: CHAT,
    finish: finishChat,
    answer(answer, reply, request) {
      addProvider(answer, reply);
      for (const choice of answer.choices as JsonObject[]) {
        choice.native_finish_reason = choice.finish_reason;
        addReasoning(choice.message as JsonObject, reply, request);
      }
      addCost(answer.usage as JsonObject);
    },
    event(data, place, reply, request) {
      addChunkProvider(data, place.index === 0, reply);
      for (const choice of data.choices as JsonObject[]) {
        choice.native_finish_reason = choice.finish_reason;
        // The whole reasoning rides on the first chunk, before any content.
        if (place.index === 0) addReasoning(choice.delta as JsonObject, reply, request);
      }
      if (data.usage) addCost(data.usage as JsonObject);
    },
  },
  responses: {
    paths: ['/openrouter/api/v1/responses'],
    prepare: stateless,
    streamComment: KEEP_ALIVE,
    answer(answer, reply) {
      addResponseMembers(answer, reply);
    },
    event(data, _place, reply) {
      // The events that carry the response object (created, in progress, completed …).
      if (isObject(data.response)) addResponseMembers(data.response, reply);
    },
  },
  providerPaths: { openrouter: '/openrouter/api/v1' },
  encodeError: encodeOpenRouterError,
};
