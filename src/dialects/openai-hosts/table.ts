// The hosts of the OpenAI dialects, one row each (host.ts). A new host is a file and a line here.

import { azure, azureV1 } from './azure.js';
import { deepseek } from './deepseek.js';
import { foundry, foundryModels } from './foundry.js';
import { groq } from './groq.js';
import type { OpenAIHost } from './host.js';
import { mistral } from './mistral.js';
import { ollamaOpenAI } from './ollama.js';
import { openrouter } from './openrouter.js';
import { perplexity } from './perplexity.js';

export const OPENAI_HOSTS: readonly OpenAIHost[] = [
  deepseek,
  azure,
  azureV1,
  foundry,
  foundryModels,
  groq,
  mistral,
  openrouter,
  perplexity,
  ollamaOpenAI,
];
