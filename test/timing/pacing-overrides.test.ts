// Issue 15 §5: pacing set at the session, the scenario and the step overrides field by field (a
// level changes only what it sets). The documented example (docs/timing-and-faults.md "Pacing")
// streams its words five a second after a two-second first token: a step that replaced the
// levels above it whole streamed everything at once after the delay.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import OpenAI from 'openai';
import { startUnderstudy } from '../../src/client/index.js';
import { parseFixtureText } from '../../src/engine/fixture-file.js';

/** The YAML block under "## Pacing" in docs/timing-and-faults.md. */
function documentedExample(): string {
  const doc = readFileSync(new URL('../../docs/timing-and-faults.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## Pacing'));
  const match = /```yaml\n([\s\S]*?)```/.exec(section);
  assert.ok(match, 'docs/timing-and-faults.md has a YAML example under "## Pacing"');
  return match[1] as string;
}

test('the documented pacing example: the step sets ttftMs, the scenario chunksPerSecond and jitterMs, the session the rest', async () => {
  const parsed = parseFixtureText(documentedExample(), 'timing-and-faults.md');
  assert.ok(parsed.ok, JSON.stringify(parsed));
  const mock = await startUnderstudy();
  try {
    const session = await mock.session('slow');
    await session.load(parsed.fixture);
    const openai = new OpenAI({ baseURL: session.url('openai'), apiKey: session.apiKey, maxRetries: 0, timeout: 30_000 });
    const started = performance.now();
    const stream = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'go' }], stream: true });
    const arrivals: number[] = [];
    let text = '';
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta?.content;
      if (delta) {
        arrivals.push(performance.now() - started);
        text += delta;
      }
    }
    assert.equal(text, 'Thinking slowly about it.');
    assert.ok(arrivals.length >= 4, `${arrivals.length} content events`);
    // The step's ttftMs (2000), not the session's (300).
    assert.ok((arrivals[0] as number) >= 1900, `first token after ${arrivals[0]?.toFixed(0)} ms`);
    // The scenario's five events a second (± its 20 ms jitter), not all at once.
    const gaps = arrivals.slice(1).map((t, i) => t - (arrivals[i] as number));
    for (const gap of gaps) assert.ok(gap >= 150 && gap <= 400, `gaps ${gaps.map((g) => g.toFixed(0)).join(', ')} ms`);
  } finally {
    await mock.close();
  }
});
