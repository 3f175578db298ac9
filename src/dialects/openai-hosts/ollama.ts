// Ollama's OpenAI-compatible layer: Chat Completions at `/v1/chat/completions` of an Ollama host,
// served here under `/ollama/v1/…` (the bare `/v1/…` is OpenAI's). Its answers are OpenAI's but
// for streamed tool calls, which Ollama sends whole, each in one chunk (its model output is parsed
// into calls before it is sent), and its system fingerprint.

import { catalogue, listedName, strictCatalogue } from '../ollama/model-catalogue.js';
import type { OpenAIHost } from './host.js';

export const ollamaOpenAI: OpenAIHost = {
  id: 'ollama-openai',
  name: "Ollama's OpenAI-compatible layer",
  chat: {
    paths: ['/ollama/v1/chat/completions'],
    wholeToolCalls: true,
    answer(answer) {
      answer.system_fingerprint = 'fp_ollama';
    },
    event(data) {
      data.system_fingerprint = 'fp_ollama';
    },
  },
  providerPaths: { 'ollama-openai': '/ollama/v1' },
  // The layer lists what the server has: the native API's models (ollama/model-catalogue.ts).
  models: {
    paths: ['/ollama/v1/models'],
    ownedBy: 'library',
    defaults: [],
    list: (state) => {
      const strict = strictCatalogue(state);
      return { ids: [...(strict ?? catalogue(state).keys())], strict: true };
    },
    listedAs: listedName,
    notFound: (id) => `model '${id}' not found`,
  },
};
