// @copilotkit/aimock (LLMock) as a benchmark child, answering the bench request with the same reply
// text. aimock streams fixed-size character slices; the slice size is chosen so the stream has
// about as many content chunks as Understudy's word chunks.
//
// Run as a child: node --import tsx bench/aimock-server.ts

import { LLMock } from '@copilotkit/aimock';
import { announce, exitOnSignal, REPLY_TEXT, REPLY_WORDS } from './scenarios.js';

const chunkSize = Math.ceil(REPLY_TEXT.length / REPLY_WORDS);
const mock = new LLMock({ port: 0, host: '127.0.0.1', chunkSize, logLevel: 'silent' });
mock.onMessage('Hello!', { content: REPLY_TEXT });
await mock.start();
announce('aimock', Number(new URL(mock.url).port));
exitOnSignal(() => mock.stop());
