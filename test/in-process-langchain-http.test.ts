// The in-process LangChain model and LangChain's ChatOpenAI over HTTP, on twin sessions with the
// same script: createAgent's loop ends the same, the same steps answer, and the neutral requests
// Understudy decoded from the wire equal those the in-process model made.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { z } from 'zod';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import type { ChatRequest } from '../src/core/model.js';
import { UnderstudyChatModel } from '../src/in-process/langchain/index.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(() => mock.close());

function script(session: UnderstudySession) {
  session
    .scenario('trip')
    .whenLatestUser({ contains: 'Lyon' })
    .callsTool('geocode', { city: 'Lyon' }, 'call_geo')
    .thenWhenToolResult('geocode', 'call_geo')
    .callsTool('forecast', { lat: 45.76, lon: 4.84 }, 'call_fc')
    .thenWhenToolResult('forecast', 'call_fc')
    .replies('Lyon is sunny, 24 °C.');
}

function tools() {
  return [
    tool(async () => JSON.stringify({ lat: 45.76, lon: 4.84 }), {
      name: 'geocode',
      description: 'Coordinates of a city',
      schema: z.object({ city: z.string() }),
    }),
    tool(async () => 'sunny, 24 °C', {
      name: 'forecast',
      description: 'Forecast at coordinates',
      schema: z.object({ lat: z.number(), lon: z.number() }),
    }),
  ];
}

/** What of a request both paths must agree on: messages, tools, tool choice, output (JSON
 * values; a schema's `$schema` aside: ChatOpenAI's converter says 2020-12, LangChain's generic
 * one draft-07, for the same schema). */
function essentials(request: ChatRequest | undefined) {
  assert.ok(request);
  const tools = request.tools.map((t) => ({ ...t, parameters: { ...(t.parameters as object), $schema: undefined } }));
  const { messages, toolChoice, parallelToolCalls, output, maxOutputTokens } = request;
  return JSON.parse(JSON.stringify({ messages, tools, toolChoice, parallelToolCalls, output, maxOutputTokens }));
}

test('createAgent over HTTP (ChatOpenAI) and in process (UnderstudyChatModel): same loop, same steps, same neutral requests', async () => {
  const overHttp = await mock.session('lc-twin-http');
  const inProcess = await mock.session('lc-twin-in-process');
  script(overHttp);
  script(inProcess);
  const chatOpenAI = new ChatOpenAI({
    model: 'understudy',
    apiKey: overHttp.apiKey,
    configuration: { baseURL: overHttp.url('openai') },
    maxRetries: 0,
    timeout: 10_000,
  });
  const understudyModel = new UnderstudyChatModel({ session: inProcess, maxRetries: 0 });
  const question = { messages: [{ role: 'user', content: 'Weather in Lyon?' }] };
  const viaHttp = await createAgent({ model: chatOpenAI, tools: tools() }).invoke(question, { signal: AbortSignal.timeout(10_000) });
  const viaProcess = await createAgent({ model: understudyModel, tools: tools() }).invoke(question, {
    signal: AbortSignal.timeout(10_000),
  });

  assert.equal(viaProcess.messages.at(-1)?.text, 'Lyon is sunny, 24 °C.');
  assert.equal(viaHttp.messages.at(-1)?.text, viaProcess.messages.at(-1)?.text);
  const http = await overHttp.journal();
  const local = await inProcess.journal();
  assert.deepEqual(
    local.entries.map((e) => [e.step, e.status]),
    http.entries.map((e) => [e.step, e.status]),
  );
  for (let i = 0; i < http.entries.length; i++) {
    assert.deepEqual(essentials(local.entries[i].request), essentials(http.entries[i].request), `request ${i + 1}`);
  }
  const expectations = {
    toolOrder: ['geocode', 'forecast'],
    toolCalled: [{ name: 'forecast', arguments: { lat: 45.76, lon: 4.84 }, times: 1 }],
  };
  await overHttp.verify(expectations);
  await inProcess.verify(expectations);
});

test('zero-config over HTTP and in process: the same smallest arguments, the same sentence, the same requests', async () => {
  const overHttp = await mock.session('lc-twin-zero-http', { fallback: 'auto' });
  const inProcess = await mock.session('lc-twin-zero-in-process', { fallback: 'auto' });
  const ran: [string, unknown][] = [];
  const booking = (path: string) =>
    tool(
      async (input) => {
        ran.push([path, input]);
        return 'booked';
      },
      {
        name: 'book_table',
        description: 'Books a table',
        schema: z.object({ restaurant: z.string().min(3), guests: z.number().int().min(1), time: z.enum(['19:00', '20:00']) }),
      },
    );
  const chatOpenAI = new ChatOpenAI({
    model: 'understudy',
    apiKey: overHttp.apiKey,
    configuration: { baseURL: overHttp.url('openai') },
    maxRetries: 0,
    timeout: 10_000,
  });
  const question = { messages: [{ role: 'user', content: 'Book me a table' }] };
  const viaHttp = await createAgent({ model: chatOpenAI, tools: [booking('http')] }).invoke(question, {
    signal: AbortSignal.timeout(10_000),
  });
  const viaProcess = await createAgent({
    model: new UnderstudyChatModel({ session: inProcess, maxRetries: 0 }),
    tools: [booking('process')],
  }).invoke(question, { signal: AbortSignal.timeout(10_000) });
  assert.equal(viaProcess.messages.at(-1)?.text, viaHttp.messages.at(-1)?.text);
  assert.deepEqual(
    ran.map(([path]) => path),
    ['http', 'process'],
  );
  assert.deepEqual(ran[1][1], ran[0][1]);
  const http = await overHttp.journal();
  const local = await inProcess.journal();
  assert.equal(local.entries.length, 2);
  // Generated call ids differ between sessions; everything else is the same.
  const withoutIds = (request: ChatRequest | undefined) =>
    JSON.parse(JSON.stringify(essentials(request)).replace(/"call_[A-Za-z0-9_-]+"/g, '"id"'));
  for (let i = 0; i < http.entries.length; i++) {
    assert.deepEqual(withoutIds(local.entries[i].request), withoutIds(http.entries[i].request), `request ${i + 1}`);
  }
});
