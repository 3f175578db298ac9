// The hosts of the OpenAI dialects, one row each (host.ts). A new host is a file and a line here.

import { deepseek } from './deepseek.js';
import type { OpenAIHost } from './host.js';
import { openrouter } from './openrouter.js';
import { perplexity } from './perplexity.js';

export const OPENAI_HOSTS: readonly OpenAIHost[] = [deepseek, openrouter, perplexity];
