// Conformance drivers for the hosts of the OpenAI dialects (src/dialects/openai-hosts/): each host
// operation through the client its users point at it — the `openai` SDK with the host's base URL
// unless the host has an SDK of its own.

import type { ConformanceDriver } from './driver.js';
import { openaiChatDriverAt } from './openai-chat.js';

export const openaiHostDrivers: ConformanceDriver[] = [
  openaiChatDriverAt({
    name: 'deepseek-chat',
    dialect: 'openai-chat@deepseek',
    operation: 'deepseek.chat.completions',
    provider: 'deepseek',
    model: 'deepseek-chat',
    // JSON mode only: a json_schema format is refused (test/openai-hosts-deepseek.test.ts).
    lacks: ['structured output'],
  }),
];
