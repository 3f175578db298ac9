// What an InvokeModel body may say, as properties over open-ended input, through the AWS client:
// any member a family's schema does not list is Bedrock's `extraneous key` refusal, and a numeric
// option is taken exactly when it is within the documented range (Bedrock's own words otherwise),
// a refusal consuming nothing.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ValidationException } from '@aws-sdk/client-bedrock-runtime';
import fc from 'fast-check';
import { startUnderstudy, type Understudy } from '../src/client/index.js';
import { bedrockClient, CLAUDE, invoke, NOVA, thrown, TITAN } from './support/bedrock-invoke.js';

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(async () => {
  await mock.close();
});

type Json = Record<string, unknown>;

interface Family {
  model: string;
  body: Json;
  /** The top-level members its schema lists. */
  members: string[];
  /** Numeric options: where they go, their range, whether only integers are taken. */
  options: { path: [string] | [string, string]; min: number; max?: number; integer?: boolean }[];
  /** Whether the body's own model checks a value's range in its own words (Claude's pydantic). */
  modelWords?: boolean;
}

const FAMILIES: Record<string, Family> = {
  anthropic: {
    model: CLAUDE,
    body: { anthropic_version: 'bedrock-2023-05-31', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] },
    members: [
      'anthropic_version',
      'anthropic_beta',
      'max_tokens',
      'system',
      'messages',
      'temperature',
      'top_p',
      'top_k',
      'stop_sequences',
      'thinking',
      'tools',
      'tool_choice',
    ],
    options: [
      { path: ['temperature'], min: 0, max: 1 },
      { path: ['top_p'], min: 0, max: 1 },
      { path: ['top_k'], min: 0, integer: true },
    ],
    modelWords: true,
  },
  titan: {
    model: TITAN,
    body: { inputText: 'hi', textGenerationConfig: {} },
    members: ['inputText', 'textGenerationConfig'],
    options: [
      { path: ['textGenerationConfig', 'temperature'], min: 0, max: 1 },
      { path: ['textGenerationConfig', 'topP'], min: 0, max: 1 },
      { path: ['textGenerationConfig', 'maxTokenCount'], min: 0, max: 8192, integer: true },
    ],
  },
  nova: {
    model: NOVA,
    body: { messages: [{ role: 'user', content: [{ text: 'hi' }] }], inferenceConfig: {} },
    members: ['schemaVersion', 'system', 'messages', 'inferenceConfig', 'toolConfig'],
    options: [
      { path: ['inferenceConfig', 'temperature'], min: 0, max: 1 },
      { path: ['inferenceConfig', 'topP'], min: 0, max: 1 },
      { path: ['inferenceConfig', 'maxTokens'], min: 1, max: 5000, integer: true },
      { path: ['inferenceConfig', 'topK'], min: 0, integer: true },
    ],
  },
};

const malformed = (problem: string) => `Malformed input request: ${problem}, please reformat your input and try again.`;

for (const [name, family] of Object.entries(FAMILIES)) {
  test(`${name}: any member the schema does not list is an extraneous key, and consumes nothing`, async () => {
    const session = await mock.session(`extraneous-${name}`);
    session.scenario('answer').replies('fine').onExhausted('repeat_last');
    const client = bedrockClient(mock.url('bedrock'), session.apiKey);
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !family.members.includes(key)),
        async (key) => {
          // Written as text, so that a key such as `__proto__` is a member like any other.
          const text = `${JSON.stringify(family.body).slice(0, -1)},${JSON.stringify(key)}:1}`;
          const error = await thrown(invoke(client, family.model, text));
          assert.ok(error instanceof ValidationException, String(error));
          assert.equal(error.message, malformed(`#: extraneous key [${key}] is not permitted`));
          refused++;
        },
      ),
      { numRuns: 30 },
    );
    await invoke(client, family.model, family.body);
    const { entries, counters } = await session.journal();
    assert.equal(counters.invalid, refused);
    assert.deepEqual([entries.at(-1)?.status, entries.at(-1)?.step], [200, 'step-1'], 'the refusals consumed nothing');
  });

  test(`${name}: a numeric option is taken exactly within its documented range`, async () => {
    const session = await mock.session(`ranges-${name}`);
    session.scenario('answer').replies('fine').onExhausted('repeat_last');
    const client = bedrockClient(mock.url('bedrock'), session.apiKey);
    const value = fc.oneof(
      fc.integer({ min: -10_000, max: 10_000 }),
      fc.double({ min: -2, max: 2, noNaN: true, noDefaultInfinity: true }),
      fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...family.options), value, async (option, n) => {
        const body = structuredClone(family.body);
        const [first, second] = option.path;
        if (second === undefined) body[first] = n;
        else (body[first] as Json)[second] = n;
        const pointer = `#/${option.path.join('/')}`;
        const integral = Number.isSafeInteger(n);
        const inRange = n >= option.min && (option.max === undefined || n <= option.max);
        const error = await thrown(invoke(client, family.model, body));
        if (inRange && (integral || !option.integer)) {
          assert.equal(error, undefined, `${pointer} = ${n} is within range`);
          return;
        }
        assert.ok(error instanceof ValidationException, `${pointer} = ${n}: ${String(error)}`);
        if (family.modelWords) {
          assert.match(error.message, new RegExp(`^${option.path.join('.')}: Input should be`));
        } else if (option.integer && !integral) {
          assert.equal(error.message, malformed(`${pointer}: expected type: Integer, found: BigDecimal`));
        } else if (n < option.min) {
          assert.equal(error.message, malformed(`${pointer}: ${n} is not greater or equal to ${option.min}`));
        } else {
          assert.equal(error.message, malformed(`${pointer}: ${n} is not less or equal to ${option.max}`));
        }
      }),
      { numRuns: 60 },
    );
  });
}
