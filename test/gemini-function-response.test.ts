// What a Gemini function response's result is, for a script's toolResult content: its `output` (or
// `error`) as Google documents, the `content` of the `{ name, content }` wrapper the Vercel AI SDK's
// Google provider sends (found by the AI SDK agent loops: a scripted result never matched through
// it), and otherwise the whole object. Sent with @google/genai, which passes any response object.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GoogleGenAI, type Content } from '@google/genai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

const MODEL = 'gemini-2.5-flash';
const RESULT = { temperature: 21, condition: 'sunny' };

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

function client(session: UnderstudySession) {
  return new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 } });
}

/** A weather call answered with this response object. */
function answered(response: Record<string, unknown>): Content[] {
  return [
    { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
    { role: 'model', parts: [{ functionCall: { id: 'call_paris', name: 'weather', args: { city: 'Paris' } } }] },
    { role: 'user', parts: [{ functionResponse: { id: 'call_paris', name: 'weather', response } }] },
  ];
}

/** The result content Understudy decoded, and whether the step requiring RESULT answered. */
async function round(name: string, response: Record<string, unknown>) {
  const session = await mock.session(name);
  await session.scenario('weather').whenToolResult('weather', 'call_paris', RESULT).replies('Sunny, 21 °C.');
  const reply = await client(session)
    .models.generateContent({ model: MODEL, contents: answered(response) })
    .then(
      (r) => r.text,
      (e: unknown) => e,
    );
  const { entries } = await session.journal();
  const part = entries[0]?.request?.messages.at(-1)?.parts[0];
  assert.equal(part?.type, 'tool_result');
  return { content: part.type === 'tool_result' ? part.content : undefined, isError: part.type === 'tool_result' && part.isError, reply };
}

test("the AI SDK's { name, content } wrapper is read as its content, so the scripted result matches", async () => {
  const { content, reply } = await round('fr-aisdk', { name: 'weather', content: RESULT });
  assert.equal(content, JSON.stringify(RESULT));
  assert.equal(reply, 'Sunny, 21 °C.');
  const text = await round('fr-aisdk-text', { name: 'weather', content: 'sunny' });
  assert.equal(text.content, 'sunny');
});

test("Google's { output } and { error } are read as before; error flags the result", async () => {
  assert.equal((await round('fr-output', { output: RESULT })).reply, 'Sunny, 21 °C.');
  const failed = await round('fr-error', { error: 'no station' });
  assert.deepEqual([failed.content, failed.isError], ['no station', true]);
});

test('a { name, content } that is not the wrapper is compared whole: another name, or another member', async () => {
  for (const response of [
    { name: 'forecast', content: RESULT },
    { name: 'weather', content: RESULT, source: 'station' },
  ]) {
    const { content, reply } = await round(`fr-whole-${Object.keys(response).length}-${response.name}`, response);
    assert.equal(content, JSON.stringify(response));
    assert.ok(reply instanceof Error && /no script matched/.test(reply.message), String(reply));
  }
});
