// Issue 15 §3: a line per request as it ends (ServerOptions.requestLog; `understudy serve` turns it
// on): the scenario and step that answered, a 409's reason, a 400's reason, a zero-config answer
// with the scenario it nearly matched; and JSON lines for machines. Off by default in process.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import OpenAI from 'openai';
import { startUnderstudy } from '../src/client/index.js';

async function logged(format: 'text' | 'json') {
  const lines: string[] = [];
  const mock = await startUnderstudy({ requestLog: { format, write: (line) => lines.push(line) } });
  try {
    const strict = await mock.session('log-strict', { fallback: 'strict' });
    await strict.load({ scenarios: [{ name: 'weather', steps: [{ when: { latestUser: 'weather?' }, reply: { text: 'Sunny.' } }] }] });
    const openai = new OpenAI({ baseURL: strict.url('openai'), apiKey: strict.apiKey, maxRetries: 0, timeout: 10_000 });
    await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'weather?' }] });
    await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'something else' }] }).catch(() => {});
    await openai.chat.completions.create({ model: 'gpt-4o', messages: [], temperature: 5 } as never).catch(() => {});
    const auto = await mock.session('log-auto', { fallback: 'auto' });
    await auto.load({
      scenarios: [{ name: 'tools', steps: [{ when: { model: 'gpt-4o', toolResult: { id: 'call_1' } }, reply: { text: 'done' } }] }],
    });
    const zero = new OpenAI({ baseURL: auto.url('openai'), apiKey: auto.apiKey, maxRetries: 0, timeout: 10_000 });
    await zero.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_2', content: 'ok' },
      ],
    });
  } finally {
    await mock.close();
  }
  return lines;
}

test('text lines: the step that answered, a 409 and a 400 with their reasons, a near miss', async () => {
  const lines = await logged('text');
  assert.equal(lines.length, 4, lines.join('\n'));
  const [answered, mismatch, invalid, near] = lines as [string, string, string, string];
  assert.match(
    answered,
    /^\d\d:\d\d:\d\d\.\d{3}  log-strict  POST \/v1\/chat\/completions  200  scenario "weather" step "step-1"  \d+ ms$/,
  );
  assert.match(mismatch, /  log-strict  POST \/v1\/chat\/completions  409  no_match: .+  \d+ ms$/);
  assert.match(invalid, /  400  [a-z_]+: .*temperature.*  \d+ ms$/);
  assert.match(near, /  log-auto  .*  200  zero-config \(near miss: scenario "tools" step "step-1": .+\)  \d+ ms$/);
  for (const line of lines) assert.ok(!line.includes('\n'), 'one line each');
});

test('JSON lines carry the same facts', async () => {
  const lines = (await logged('json')).map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.equal(lines.length, 4);
  assert.deepEqual(
    lines.map((l) => [l.session, l.status, l.scenario ?? null, (l.error as { code?: string } | undefined)?.code ?? null]),
    [
      ['log-strict', 200, 'weather', null],
      ['log-strict', 409, null, 'no_match'],
      ['log-strict', 400, null, (lines[2]?.error as { code: string }).code],
      ['log-auto', 200, null, null],
    ],
  );
  assert.equal(lines[3]?.source, 'zero_config');
  assert.equal((lines[3]?.nearMisses as { scenario: string }[])[0]?.scenario, 'tools');
});

test('off unless asked for', async () => {
  const written: string[] = [];
  const original = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string, ...rest: never[]) => (
    written.push(String(chunk)),
    original(chunk, ...rest)
  )) as typeof process.stdout.write;
  try {
    const mock = await startUnderstudy();
    const session = await mock.session();
    await session.load({ scenarios: [{ name: 'one', replies: [{ text: 'hello' }] }] });
    const openai = new OpenAI({ baseURL: session.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 10_000 });
    await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    await mock.close();
  } finally {
    process.stdout.write = original;
  }
  assert.ok(!written.some((w) => /POST \/v1\/chat\/completions {2}200/.test(w)), written.join(''));
});
