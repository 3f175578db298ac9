// Every dialect the server speaks. A new dialect adds its folder and one line here.

import { anthropicMessagesRegistration } from './anthropic-messages/routes.js';
import type { DialectRegistration } from './dialect.js';
import { geminiRegistration } from './gemini/routes.js';
import { openaiChatRegistration } from './openai-chat/routes.js';
import { openaiResponsesRegistration } from './openai-responses/routes.js';

export const DIALECTS: DialectRegistration[] = [
  openaiChatRegistration,
  openaiResponsesRegistration,
  anthropicMessagesRegistration,
  geminiRegistration,
];
