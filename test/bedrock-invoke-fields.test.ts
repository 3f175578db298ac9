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
  /** What Bedrock says before the violations (Claude's schema is one of two). */
  schemaPrefix?: string;
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
    schemaPrefix: '#: subject must not be valid against schema {"required":["messages"]}',
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
  test(`${name}: any members the schema does not list are extraneous keys, each named, and consume nothing`, async () => {
    const session = await mock.session(`extraneous-${name}`);
    session.scenario('answer').replies('fine').onExhausted('repeat_last');
    const client = bedrockClient(mock.url('bedrock'), session.apiKey);
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !family.members.includes(key)),
          { minLength: 1, maxLength: 3 },
        ),
        async (keys) => {
          // Written as text, so that a key such as `__proto__` is a member like any other.
          const extra = keys.map((key) => `,${JSON.stringify(key)}:1`).join('');
          const text = `${JSON.stringify(family.body).slice(0, -1)}${extra}}`;
          const error = await thrown(invoke(client, family.model, text));
          assert.ok(error instanceof ValidationException, String(error));
          // Every one of them, in the order sent.
          const problems = keys.map((key) => `#: extraneous key [${key}] is not permitted`).join('');
          assert.equal(error.message, malformed(`${family.schemaPrefix ?? ''}${problems}`));
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

  if (!family.modelWords) {
    test(`${name}: a numeric option of another JSON type is refused naming the type it found`, async () => {
      const session = await mock.session(`types-${name}`);
      session.scenario('answer').replies('fine').onExhausted('repeat_last');
      const client = bedrockClient(mock.url('bedrock'), session.apiKey);
      const other = fc.oneof(
        fc.string({ maxLength: 6 }).map((v) => [v, 'String'] as const),
        fc.boolean().map((v) => [v, 'Boolean'] as const),
        fc.constant([null, 'Null'] as const),
        fc.array(fc.integer(), { maxLength: 2 }).map((v) => [v, 'JSONArray'] as const),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 3 }), fc.integer(), { maxKeys: 2 }).map((v) => [v, 'JSONObject'] as const),
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...family.options), other, async (option, [value, found]) => {
          const body = structuredClone(family.body);
          (body[option.path[0]] as Json)[option.path[1] as string] = value;
          const error = await thrown(invoke(client, family.model, body));
          assert.ok(error instanceof ValidationException, String(error));
          const expected = option.integer ? 'Integer' : 'Number';
          assert.equal(error.message, malformed(`#/${option.path.join('/')}: expected type: ${expected}, found: ${found}`));
        }),
        { numRuns: 40 },
      );
    });
  }
}
