// Conformance drivers for the hosts of the OpenAI dialects (src/dialects/openai-hosts/): each host
// operation through the client its users point at it — the `openai` SDK with the host's base URL
// unless the host has an SDK of its own.

import type { ConformanceDriver } from './driver.js';
import { groqChatDriver } from './groq.js';
import { mistralChatDriver } from './mistral.js';
import { openaiChatDriverAt } from './openai-chat.js';
import { openaiResponsesDriverAt } from './openai-responses.js';

export const openaiHostDrivers: ConformanceDriver[] = [
  openaiChatDriverAt({
    name: 'deepseek-chat',
    dialect: 'openai-chat@deepseek',
    operation: 'deepseek.chat.completions',
    provider: 'deepseek',
    model: 'deepseek-chat',
  }),
  groqChatDriver,
  openaiResponsesDriverAt({
    name: 'groq-responses',
    dialect: 'openai-responses@groq',
    operation: 'groq.responses',
    provider: 'groq-v1',
    model: 'openai/gpt-oss-20b',
  }),
  mistralChatDriver,
];
