// Groq: Chat Completions and Responses under `/openai/v1` of its own base URL. Its answers carry
// `x_groq` (the request id; in a stream on the first chunk, and with the token usage and timings
// on the last); its usage adds queue, prompt and completion times, a scripted reasoning is the
// message's `reasoning`, and streamed tool calls come whole. It refuses a few OpenAI members
// (logprobs, logit_bias, top_logprobs, a message's name, n other than 1), and its Responses keep
// nothing (no `store`, no `previous_response_id`).

import { invalidRequest, type NeutralError } from '../../core/errors.js';
import type { Usage } from '../../core/model.js';
import type { DialectEncodeContext } from '../dialect.js';
import { CHAT_FIELDS } from '../openai-chat/decode-request.js';
import { arrayOf, boolean, oneOf, object, string, type FieldRule } from '../openai/field-rules.js';
import { given, isObject } from '../wire-kit/values.js';
import type { JsonObject, OpenAIHost } from './host.js';

const CHAT_ID_PREFIX = 'chatcmpl-';

/** Groq's request members besides OpenAI's (groq-sdk's ChatCompletionCreateParams). */
const GROQ_CHAT_FIELDS: Readonly<Record<string, FieldRule>> = {
  ...CHAT_FIELDS,
  reasoning_format: oneOf('hidden', 'raw', 'parsed'),
  reasoning_effort: oneOf('none', 'default', 'low', 'medium', 'high'),
  include_reasoning: boolean,
  service_tier: oneOf('auto', 'on_demand', 'flex', 'performance'),
  citation_options: oneOf('enabled', 'disabled'),
  disable_tool_validation: boolean,
  search_settings: object({}),
  documents: arrayOf(object({})),
  compound_custom: object({}),
  include_domains: arrayOf(string()),
  exclude_domains: arrayOf(string()),
};

/** OpenAI members Groq documents as refused with a 400. */
const REFUSED = ['logprobs', 'logit_bias', 'top_logprobs'] as const;

function unsupported(param: string): NeutralError {
  return invalidRequest(`property '${param}' is unsupported`, param, 'unsupported_parameter');
}

/** Each role's message members (groq-sdk's message params); Groq refuses any other. */
const MESSAGE_MEMBERS: Record<string, ReadonlySet<string>> = {
  system: new Set(['role', 'content', 'name']),
  developer: new Set(['role', 'content', 'name']),
  user: new Set(['role', 'content', 'name']),
  assistant: new Set(['role', 'content', 'name', 'tool_calls', 'function_call', 'reasoning']),
  tool: new Set(['role', 'content', 'tool_call_id']),
  function: new Set(['role', 'content', 'name']),
};

/** A message member Groq refuses, in its words ('messages.1' : for 'role:assistant' the
 * following must be satisfied[…]): one its role has not (`reasoning_content` kept from another
 * provider, an application's own `timestamp`), or a `name`, which Groq documents as refused. */
function messageRefusal(message: JsonObject, i: number): NeutralError | undefined {
  const members = typeof message.role === 'string' ? MESSAGE_MEMBERS[message.role] : undefined;
  if (!members) return undefined;
  for (const key in message) {
    if (members.has(key) && !(key === 'name' && given(message.name))) continue;
    return invalidRequest(
      `'messages.${i}' : for 'role:${message.role as string}' the following must be satisfied[('messages.${i}' : property '${key}' is unsupported)]`,
      `messages.${i}.${key}`,
      'unsupported_parameter',
    );
  }
  return undefined;
}

function prepareChat(body: JsonObject): JsonObject | NeutralError {
  for (const key in body) if (!Object.hasOwn(GROQ_CHAT_FIELDS, key)) return unsupported(key);
  for (const key of REFUSED) if (given(body[key])) return unsupported(key);
  if (given(body.n) && body.n !== 1) return invalidRequest(`'n' : number must be equal to 1`, 'n', 'invalid_value');
  const messages = body.messages;
  if (Array.isArray(messages)) {
    for (let i = 0; i < messages.length; i++) {
      const message: unknown = messages[i];
      const refused = isObject(message) ? messageRefusal(message, i) : undefined;
      if (refused) return refused;
    }
  }
  return body;
}

function prepareResponses(body: JsonObject): JsonObject | NeutralError {
  if (given(body.previous_response_id)) return unsupported('previous_response_id');
  if (body.store === true)
    return invalidRequest(`'store' : Groq stores no responses; send 'store': false or leave it out`, 'store', 'unsupported_value');
  return body;
}

// How long Groq's report says each part took: made from the token counts at fixed rates, so the
// same answer reports the same times (and a client dividing tokens by time gets a finite speed).
const QUEUE_SECONDS = 0.01;
const PROMPT_TOKENS_PER_SECOND = 10_000;
const COMPLETION_TOKENS_PER_SECOND = 500;

function seconds(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function timings(usage: Usage): JsonObject {
  const prompt = seconds(usage.inputTokens / PROMPT_TOKENS_PER_SECOND);
  const completion = seconds(usage.outputTokens / COMPLETION_TOKENS_PER_SECOND);
  return { queue_time: QUEUE_SECONDS, prompt_time: prompt, completion_time: completion, total_time: seconds(prompt + completion) };
}

/** x_groq's request id, from the response id (which a byte template rewrites in every answer). */
function requestIdOf(ctx: DialectEncodeContext): string {
  return `req_${ctx.responseId.slice(CHAT_ID_PREFIX.length)}`;
}

export const groq: OpenAIHost = {
  id: 'groq',
  name: 'Groq',
  chat: {
    paths: ['/groq/openai/v1/chat/completions'],
    fields: GROQ_CHAT_FIELDS,
    prepare: prepareChat,
    // Groq sends each streamed tool call whole, arguments and all, in one delta.
    wholeToolCalls: true,
    answer(answer, reply, _request, ctx) {
      Object.assign(answer.usage as JsonObject, timings(reply.usage));
      if (reply.reasoning !== null) ((answer.choices as JsonObject[])[0].message as JsonObject).reasoning = reply.reasoning;
      // On a JSON answer x_groq's usage is the prompt cache's share (groq-sdk's XGroq.Usage);
      // Understudy's one cache counts as the on-chip (SRAM) one.
      answer.x_groq = { id: requestIdOf(ctx), usage: { sram_cached_tokens: reply.usage.cachedInputTokens, dram_cached_tokens: 0 } };
    },
    // The first chunk and the last before [DONE] (the finishing one, or OpenAI's usage chunk when
    // asked for), and any chunk with OpenAI's usage.
    touches: (framed, place) => place.index === 0 || place.index === place.count - 2 || framed.includes('"usage":{'),
    event(data, place, reply, _request, ctx) {
      const choice = (data.choices as JsonObject[])[0];
      if (place.index === 0) {
        data.x_groq = { id: requestIdOf(ctx) };
        // The whole reasoning rides on the first chunk, before any content.
        if (reply.reasoning !== null && choice !== undefined) (choice.delta as JsonObject).reasoning = reply.reasoning;
      } else if (place.index === place.count - 2) {
        const u = reply.usage;
        data.x_groq = {
          id: requestIdOf(ctx),
          usage: {
            prompt_tokens: u.inputTokens,
            completion_tokens: u.outputTokens,
            total_tokens: u.inputTokens + u.outputTokens,
            ...timings(u),
          },
        };
      }
      if (isObject(data.usage)) Object.assign(data.usage, timings(reply.usage));
    },
  },
  responses: {
    paths: ['/groq/openai/v1/responses'],
    prepare: prepareResponses,
  },
  providerPaths: { groq: '/groq', 'groq-v1': '/groq/openai/v1' },
  models: {
    paths: ['/groq/openai/v1/models'],
    ownedBy: 'Groq',
    defaults: ['llama-3.3-70b-versatile', 'llama-3.1-8b-instant', 'openai/gpt-oss-120b'],
    // Groq's cards say whether a model is served and how much it takes and gives.
    card: () => ',"active":true,"context_window":131072,"public_apps":null,"max_completion_tokens":32768',
  },
};
