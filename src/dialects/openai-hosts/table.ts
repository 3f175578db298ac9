// The hosts of the OpenAI dialects, one row each (host.ts). A new host is a file and a line here.

import { deepseek } from './deepseek.js';
import { groq } from './groq.js';
import { mistral } from './mistral.js';
import type { OpenAIHost } from './host.js';

export const OPENAI_HOSTS: readonly OpenAIHost[] = [deepseek, groq, mistral];
