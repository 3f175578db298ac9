// DeepSeek: Chat Completions at `/chat/completions` (and `/v1/…`) of its own base URL. Its usage
// splits the prompt into `prompt_cache_hit_tokens` and `prompt_cache_miss_tokens` (the session's
// prompt-cache accounting), and deepseek-reasoner's thinking is the message's `reasoning_content`.

import type { Usage } from '../../core/model.js';
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
};
