// DeepSeek: Chat Completions at `/chat/completions` (and `/v1/…`) of its own base URL. Its usage
// splits the prompt into `prompt_cache_hit_tokens` and `prompt_cache_miss_tokens` (the session's
// prompt-cache accounting), and deepseek-reasoner's thinking is the message's `reasoning_content`.
// It has JSON mode (`json_object`) but no structured outputs: a `json_schema` format is refused.

import { invalidRequest } from '../../core/errors.js';
import type { Usage } from '../../core/model.js';
import { isObject } from '../wire-kit/values.js';
import type { JsonObject, OpenAIHost } from './host.js';

function addCacheSplit(usage: JsonObject, from: Usage): void {
  usage.prompt_cache_hit_tokens = from.cachedInputTokens;
  usage.prompt_cache_miss_tokens = from.inputTokens - from.cachedInputTokens;
}

export const deepseek: OpenAIHost = {
  id: 'deepseek',
  name: 'DeepSeek',
  chat: {
    paths: ['/deepseek/chat/completions', '/deepseek/v1/chat/completions'],
    prepare(body) {
      const format = body.response_format;
      if (isObject(format) && format.type === 'json_schema') {
        return invalidRequest('This response_format type is unavailable now', null, 'invalid_request_error');
      }
      return body;
    },
    answer(answer, reply) {
      addCacheSplit(answer.usage as JsonObject, reply.usage);
      if (reply.reasoning !== null) ((answer.choices as JsonObject[])[0].message as JsonObject).reasoning_content = reply.reasoning;
    },
    event(data, place, reply) {
      if (data.usage) addCacheSplit(data.usage as JsonObject, reply.usage);
      // The whole reasoning rides on the first chunk, before any content.
      if (place.index === 0 && reply.reasoning !== null)
        ((data.choices as JsonObject[])[0].delta as JsonObject).reasoning_content = reply.reasoning;
    },
  },
  providerPaths: { deepseek: '/deepseek' },
  // DeepSeek lists its models and serves no route for one.
  models: {
    paths: ['/deepseek/models', '/deepseek/v1/models'],
    ownedBy: 'deepseek',
    defaults: ['deepseek-chat', 'deepseek-reasoner'],
    listOnly: true,
  },
};
