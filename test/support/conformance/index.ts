// Every conformance driver. A new dialect adds its driver file here; the suite fails for any
// registered operation that no driver reaches.

import { anthropicMessagesDriver } from './anthropic-messages.js';
import { bedrockConverseDriver } from './bedrock-converse.js';
import { bedrockInvokeDrivers } from './bedrock-invoke.js';
import { cohereV1Driver } from './cohere-v1.js';
import { cohereV2Driver } from './cohere-v2.js';
import type { ConformanceDriver } from './driver.js';
import { geminiDriver, vertexDriver, vertexExpressDriver } from './gemini.js';
import { ollamaChatDriver, ollamaGenerateDriver } from './ollama.js';
import { openaiHostDrivers } from './openai-hosts.js';
import { openaiChatDriver } from './openai-chat.js';
import { openaiResponsesDriver } from './openai-responses.js';

/** The dialects of their own (test/conformance.test.ts). */
export const CORE_DRIVERS: ConformanceDriver[] = [
  openaiChatDriver,
  openaiResponsesDriver,
  anthropicMessagesDriver,
  geminiDriver,
  vertexDriver,
  vertexExpressDriver,
  cohereV2Driver,
  ollamaChatDriver,
  ollamaGenerateDriver,
  cohereV1Driver,
];

/** The hosts of the OpenAI dialects (test/conformance-hosts.test.ts). */
export const HOST_DRIVERS: ConformanceDriver[] = openaiHostDrivers;

/** Amazon Bedrock's operations (test/conformance-bedrock.test.ts). */
export const BEDROCK_DRIVERS: ConformanceDriver[] = [bedrockConverseDriver, ...bedrockInvokeDrivers];

export const DRIVERS: ConformanceDriver[] = [...CORE_DRIVERS, ...HOST_DRIVERS, ...BEDROCK_DRIVERS];
