// @copilotkit/aimock (LLMock) as a benchmark child, answering the bench request with the reply text
// given in its JSON config (see AimockChildConfig in bench/scenarios.ts). aimock streams fixed-size
// character slices; the slice size is chosen so the stream has as many content chunks as
// Understudy's (20 for the word reply, 100 for B2's 5-character chunks).
//
// Run as a child: node --import tsx bench/aimock-server.ts '{"text":"...","chunkSize":7}'

import { LLMock } from '@copilotkit/aimock';
import { announce, exitOnSignal, REPLY_TEXT, type AimockChildConfig } from './scenarios.js';

const config = JSON.parse(process.argv[2] ?? JSON.stringify({ text: REPLY_TEXT, chunkSize: 7 })) as AimockChildConfig;
const mock = new LLMock({ port: 0, host: '127.0.0.1', chunkSize: config.chunkSize, logLevel: 'silent' });
mock.onMessage('Hello!', { content: config.text });
await mock.start();
announce('aimock', Number(new URL(mock.url).port));
exitOnSignal(() => mock.stop());
