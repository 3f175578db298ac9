import type { DialectRegistration } from '../dialect.js';
import { openaiChat } from './index.js';

export const openaiChatRegistration: DialectRegistration = {
  routes: [
    { method: 'POST', path: '/v1/chat/completions', operation: 'openai.chat.completions', dialect: openaiChat },
    { method: 'POST', path: '/openai/v1/chat/completions', operation: 'openai.chat.completions', dialect: openaiChat },
  ],
  providerPaths: { openai: '/v1' },
};
