import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { describeProblems } from '../src/engine/fixture-check.js';
import { fixtureJsonSchema, fixturePlanNodes } from '../src/engine/fixture-json-schema.js';
import { acceptsFixture } from '../src/engine/fixture-plan.js';
import { FIXTURE_PLAN } from '../src/engine/fixture-plan.generated.js';
import { DEFAULT_REPLY_LIMITS } from '../src/engine/reply-limits.js';

const committed = new URL('../schema/fixtures.schema.json', import.meta.url);

test('schema/fixtures.schema.json is what the format description generates (npm run build:schema)', async () => {
  const onDisk = JSON.parse(await readFile(committed, 'utf8')) as unknown;
  // Key order too: a hand edit that only moves things around is still a hand edit.
  assert.equal(
    JSON.stringify(onDisk, null, 1),
    JSON.stringify(fixtureJsonSchema(), null, 1),
    'schema/fixtures.schema.json differs from the description in src/engine/fixture-schema.ts: run `npm run build:schema`',
  );
});

test('src/engine/fixture-plan.generated.ts is what the format description generates (npm run build:schema)', () => {
  assert.equal(
    JSON.stringify(FIXTURE_PLAN, null, 1),
    JSON.stringify(fixturePlanNodes(), null, 1),
    'fixture-plan.generated.ts differs from the description in src/engine/fixture-schema.ts: run `npm run build:schema`',
  );
});

test('the generated schema carries the descriptions and the rules written beside the fields', () => {
  const schema = fixtureJsonSchema() as { definitions: Record<string, Record<string, unknown>> };
  assert.equal(String(schema.definitions.scenario.description).startsWith('A named script'), true);
  assert.deepEqual(schema.definitions.scenario.oneOf, [{ required: ['steps'] }, { required: ['replies'] }]);
  assert.deepEqual(schema.definitions.fault.not, { required: ['afterChunks', 'afterBytes'] });
  assert.deepEqual(schema.definitions.textMatch.dependencies, { flags: ['matches'] });
  const step = schema.definitions.step as { properties: { id: Record<string, unknown> } };
  assert.deepEqual(step.properties.id.not, { const: 'complete' });
});

// A fixture that uses every field, and values that break them.
const FULL = parseYaml(`
session: { fallback: strict, pacing: { ttftMs: 1, chunksPerSecond: 2, jitterMs: 0 } }
scenarios:
  - name: weather
    exhausted: restart
    maxReplies: 4
    pacing: { ttftMs: 3 }
    steps:
      - id: ask
        when: { model: { matches: '^gpt-4', flags: i }, latestUser: { contains: weather }, hasTool: weather, attempt: 0 }
        reply: { toolCalls: [{ id: call_1, name: weather, arguments: { city: Paris } }], reasoning: r, reasoningTokens: 2 }
        next: [answer, fallback]
      - id: answer
        when:
          toolResult: { name: weather, id: call_1, content: x }
          toolArguments: { name: weather, id: c, equals: { city: Paris } }
          jsonPath: { path: $.temp, equals: 21, in: toolResult }
        reply:
          text: Sunny.
          chunks: [Sun, ny.]
          finishReason: stop
          delayMs: 1
          pacing: { ttftMs: 1 }
          fault: { kind: error, afterChunks: 1, error: { status: 500, message: m, code: c, type: t } }
        next: complete
      - id: fallback
        when:
          historyExact: [{ role: user, content: hi }]
          historyContains: [{ role: assistant, toolCalls: [{ id: a, name: weather, arguments: 1 }] }, { role: tool, toolCallId: call_1 }]
        reply: { error: { status: 429, message: slow, code: rate, type: t, inStream: true, headers: { retry-after: '1' } }, delayMs: 5 }
  - name: queue
    replies: [{ text: first }, { json: { ok: true }, chunks: ['{"ok":true}'] }, { toolCalls: [{ name: lookup, arguments: raw }] }]
  - name: presets
    steps:
      - reply: { toolCalls: [{ preset: read_file, id: call_read, arguments: { path: a.txt, offset: 0, length: 5 } }] }
      - when:
          toolResult: { preset: read_file, id: call_read, arguments: { path: a.txt, offset: 0, length: 5 }, result: { content: hello, truncated: true } }
        reply: { text: read }
      - when: { toolResult: { preset: calculator, error: { code: bad, message: no, retryable: false } } }
        reply: { text: failed }
`) as unknown;

function pathsOf(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...at, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) pathsOf(v, [...at, k], out);
  return out;
}

const PATHS = pathsOf(FULL).filter((p) => p.length > 0);
const BREAKERS = [3, 'x', '', ' ', [], ['x'], {}, null, -1, 1.5, 0, true, 'complete', 'gi', 1e20, 700, Infinity, NaN, undefined];

test('property: the plan accepts exactly what zod and the rules accept (valid scripts never load zod)', () => {
  assert.equal(acceptsFixture(FULL, DEFAULT_REPLY_LIMITS), true);
  assert.deepEqual(describeProblems(FULL, DEFAULT_REPLY_LIMITS), []);
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.constantFrom(...PATHS), fc.constantFrom(...BREAKERS, 'delete', 'unknown key')), { minLength: 1, maxLength: 3 }),
      (edits) => {
        const value = structuredClone(FULL) as Record<string | number, unknown>;
        for (const [path, edit] of edits) {
          let parent: unknown = value;
          for (const segment of path.slice(0, -1)) parent = (parent as Record<string | number, unknown> | undefined)?.[segment];
          if (parent === null || typeof parent !== 'object') continue;
          const p = parent as Record<string | number, unknown>;
          const key = path[path.length - 1];
          if (edit === 'delete') delete p[key];
          else if (edit === 'unknown key') {
            if (p[key] && typeof p[key] === 'object' && !Array.isArray(p[key])) (p[key] as Record<string, unknown>).nmae = 1;
          } else p[key] = structuredClone(edit);
        }
        const problems = describeProblems(value, DEFAULT_REPLY_LIMITS);
        assert.equal(acceptsFixture(value, DEFAULT_REPLY_LIMITS), problems.length === 0, JSON.stringify(problems));
      },
    ),
    { numRuns: 2000 },
  );
});
