// Mistral: Chat Completions at `/v1/chat/completions` of its own base URL, with its own request
// members (and none of OpenAI's it does not list), `tool_choice: "any"`, tool call ids of nine
// letters and digits, streamed tool calls whole in one chunk and usage on the chunk that finishes.
// Its errors are {"object":"error","message","type","param","code"}; what its request schema
// refuses (a member's type, range or value, a missing or an unknown member) is a 422 whose message
// is FastAPI's {"detail":[{type, loc, msg}]}.

import type { Usage } from '../../core/model.js';
import { encodeMistralError, mistralRefusal } from './mistral-errors.js';
import { finishMistralChat, MISTRAL_CHAT_FIELDS, prepareMistralChat } from './mistral-request.js';
import type { JsonObject, OpenAIHost } from './host.js';

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
    prepare: prepareMistralChat,
    finish: finishMistralChat,
    refusal: mistralRefusal,
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
  models: {
    paths: ['/mistral/v1/models'],
    ownedBy: 'mistralai',
    defaults: ['mistral-large-latest', 'mistral-medium-latest', 'mistral-small-latest', 'codestral-latest', 'mistral-embed'],
    // A base model's card as Mistral's SDK reads it (its `type` picks the card's schema).
    card: (id) =>
      ',"capabilities":{"completion_chat":true,"function_calling":true,"vision":true},' +
      `"name":${JSON.stringify(id)},"description":"","max_context_length":131072,"aliases":[],"deprecation":null,"type":"base"`,
  },
};
