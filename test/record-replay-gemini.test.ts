// Record and replay through the real @google/genai (issue 22): an agent loop of functionCall and
// functionResponse parts, recorded from a local upstream, replays with the upstream stopped and
// gives the SDK the same results through generateContent and generateContentStream. Gemini's
// function calls usually carry no id: the upstream here sends none, the recording keeps none, and
// the replay sends none either (a call and its functionResponse are tied by name and order); an
// upstream that does send ids has them replayed. Gemini has no end-user member, so the test
// redacts the end user named in the system instruction with a `--redact` pattern.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { parse } from 'yaml';
import {
  ApiError,
  GoogleGenAI,
  Type,
  type Content,
  type FunctionCall,
  type FunctionDeclaration,
  type GenerateContentConfig,
  type Part,
} from '@google/genai';

import {
  type CannedAnswer,
  CLOCK_TOOL,
  FINAL_TEXT,
  recordThenReplay,
  replayOfLoop,
  toolResult,
  UPSTREAM_KEY,
  WEATHER_TOOL,
} from './support/record-replay.js';

const MODEL = 'gemini-2.5-flash';
/** The shared tools, in the SDK's own schema terms. */
const DECLARATIONS: FunctionDeclaration[] = [WEATHER_TOOL, CLOCK_TOOL].map((t) => {
  const [property] = t.parameters.required;
  return {
    name: t.name,
    description: t.description,
    parameters: { type: Type.OBJECT, properties: { [property]: { type: Type.STRING } }, required: [property] },
  };
});
const CONFIG: GenerateContentConfig = {
  systemInstruction: 'You answer for end-user-77.',
  tools: [{ functionDeclarations: DECLARATIONS }],
};

interface Turn {
  thoughts: string;
  text: string;
  toolCalls: FunctionCall[];
  finish: string | undefined;
  usage: unknown;
}

function client(baseUrl: string, vertex = false): GoogleGenAI {
  if (!vertex) return new GoogleGenAI({ apiKey: UPSTREAM_KEY, httpOptions: { baseUrl, timeout: 10_000 } });
  // Vertex AI: a bearer token from the application's auth client, a project and a location.
  const authClient = { getRequestHeaders: async () => new Headers({ authorization: `Bearer ${UPSTREAM_KEY}` }) };
  return new GoogleGenAI({
    vertexai: true,
    project: 'my-proj',
    location: 'us-central1',
    httpOptions: { baseUrl, timeout: 10_000 },
    googleAuthOptions: { authClient: authClient as never },
  });
}

/** The answer's text as `response.text` gives it, without its warning about the call parts. */
function textOf(parts: Part[] | undefined, thought = false): string {
  return (parts ?? []).map((p) => (Boolean(p.thought) === thought ? (p.text ?? '') : '')).join('');
}

/** One model turn as the application sees it, with the content it sends back. */
async function turnOf(
  ai: GoogleGenAI,
  contents: Content[],
  stream: boolean,
  config: GenerateContentConfig,
): Promise<{ turn: Turn; content: Content }> {
  if (!stream) {
    const response = await ai.models.generateContent({ model: MODEL, contents, config });
    const candidate = response.candidates?.[0];
    return {
      turn: {
        thoughts: textOf(candidate?.content?.parts, true),
        text: textOf(candidate?.content?.parts),
        toolCalls: response.functionCalls ?? [],
        finish: candidate?.finishReason,
        usage: response.usageMetadata,
      },
      content: candidate?.content ?? { role: 'model', parts: [] },
    };
  }
  const turn: Turn = { thoughts: '', text: '', toolCalls: [], finish: undefined, usage: undefined };
  const parts: Part[] = [];
  for await (const chunk of await ai.models.generateContentStream({ model: MODEL, contents, config })) {
    const candidate = chunk.candidates?.[0];
    parts.push(...(candidate?.content?.parts ?? []));
    turn.text += textOf(candidate?.content?.parts);
    turn.thoughts += textOf(candidate?.content?.parts, true);
    turn.toolCalls.push(...(chunk.functionCalls ?? []));
    turn.finish = candidate?.finishReason ?? turn.finish;
    turn.usage = chunk.usageMetadata ?? turn.usage;
  }
  return { turn, content: { role: 'model', parts } };
}

async function agentLoop(baseUrl: string, stream: boolean, thoughts = false, vertex = false): Promise<Turn[]> {
  const config = thoughts ? { ...CONFIG, thinkingConfig: { includeThoughts: true } } : CONFIG;
  const ai = client(baseUrl, vertex);
  const contents: Content[] = [{ role: 'user', parts: [{ text: 'What is the weather in Paris, and the time?' }] }];
  const turns: Turn[] = [];
  for (let round = 0; round < 4; round++) {
    const { turn, content } = await turnOf(ai, contents, stream, config);
    turns.push(turn);
    contents.push(content);
    if (turn.toolCalls.length === 0) break;
    contents.push({
      role: 'user',
      parts: turn.toolCalls.map((call) => ({
        functionResponse: {
          ...(call.id !== undefined && { id: call.id }),
          name: call.name,
          response: JSON.parse(toolResult(call.name ?? '')) as Record<string, unknown>,
        },
      })),
    });
  }
  return turns;
}

const REPORTED = { promptTokenCount: 1234, cachedContentTokenCount: 1024, candidatesTokenCount: 56, totalTokenCount: 1290 };

for (const [stream, tag] of [
  [false, '[record.gemini.json +]'],
  [true, '[record.gemini.stream +]'],
] as const) {
  const mode = stream ? 'stream' : 'json';
  test(`a Gemini agent loop whose calls carry no id, recorded from the upstream, replays with the upstream stopped, the SDK seeing the same results (${mode}) ${tag}`, async () => {
    const { recorded, files } = await recordThenReplay({
      provider: 'gemini',
      session: 'gemini-loop',
      loop: (baseUrl) => agentLoop(baseUrl, stream),
      redact: ['/end-user-\\d+/'],
      secrets: ['end-user-77'],
      upstream: { callIds: false },
    });
    assert.deepEqual(
      recorded.map((t) => t.toolCalls),
      [[{ name: 'weather', args: { city: 'Paris' } }], [{ name: 'clock', args: { zone: 'Europe/Paris' } }], []],
      'no id on the wire',
    );
    assert.deepEqual(
      recorded.map((t) => t.finish),
      ['STOP', 'STOP', 'STOP'],
    );
    assert.equal(recorded[2].text, FINAL_TEXT);
    assert.deepEqual(
      Object.fromEntries(Object.keys(REPORTED).map((k) => [k, (recorded[2].usage as Record<string, unknown>)[k]])),
      REPORTED,
      "the upstream's own counts",
    );
    const steps = (parse(files[0].text) as { scenarios: { steps: { reply: { toolCalls?: object[] } }[] }[] }).scenarios[0].steps;
    assert.deepEqual(
      steps.map((step) => (step.reply.toolCalls ?? []).map((call) => 'id' in call)),
      [[false], [false], []],
      'the recording keeps no call id',
    );
  });
}

test('a Gemini upstream that sends call ids has them replayed [record.gemini.json +]', async () => {
  const { recorded } = await recordThenReplay({
    provider: 'gemini',
    session: 'gemini-ids',
    loop: (baseUrl) => agentLoop(baseUrl, false),
  });
  assert.deepEqual(
    recorded.map((t) => t.toolCalls.map((c) => c.id)),
    [['call_weather_1'], ['call_clock_2'], []],
  );
});

test('a Gemini request the recording does not hold is refused on replay with a 409 [record.gemini.json -] [record.gemini.stream -]', async () => {
  const replay = await replayOfLoop('gemini', (baseUrl) => agentLoop(baseUrl, false), { upstream: { callIds: false } });
  try {
    const ai = client(replay.url('gemini'));
    const contents = 'What is the weather in Rome?';
    const refused = (error: unknown) => error instanceof ApiError && error.status === 409 && /latestUser/.test(error.message);
    await assert.rejects(ai.models.generateContent({ model: MODEL, contents, config: CONFIG }), refused);
    await assert.rejects(async () => {
      for await (const chunk of await ai.models.generateContentStream({ model: MODEL, contents, config: CONFIG })) void chunk;
    }, refused);
  } finally {
    await replay.close();
  }
});

test('a loop whose answers show their thoughts sends the thought parts back and replays them [record.gemini.stream +]', async () => {
  for (const stream of [false, true]) {
    const { recorded } = await recordThenReplay({
      provider: 'gemini',
      session: `thoughts-${stream}`,
      loop: (baseUrl) => agentLoop(baseUrl, stream, true),
      upstream: { callIds: false, reasoning: 'The user wants the weather first.' },
    });
    assert.deepEqual(
      recorded.map((t) => t.thoughts),
      ['The user wants the weather first.', 'The user wants the weather first.', ''],
    );
  }
});

for (const [stream, tag] of [
  [false, '[record.vertex.json +]'],
  [true, '[record.vertex.stream +]'],
] as const) {
  test(`on Vertex AI (a bearer token, the project and location path) the loop replays the same (${stream ? 'stream' : 'json'}) ${tag}`, async () => {
    const { recorded, files } = await recordThenReplay({
      provider: 'vertex',
      session: 'vertex-loop',
      loop: (baseUrl) => agentLoop(baseUrl, stream, false, true),
      redact: ['/end-user-\\d+/'],
      secrets: ['end-user-77'],
      upstream: { callIds: false },
    });
    assert.deepEqual(
      recorded.map((t) => t.toolCalls.map((c) => c.name)),
      [['weather'], ['clock'], []],
    );
    assert.equal(recorded[2].text, FINAL_TEXT);
    const steps = (parse(files[0].text) as { scenarios: { steps: { recorded: { operation: string; path: string } }[] }[] }).scenarios[0]
      .steps;
    assert.match(
      steps[0].recorded.path,
      /^\/v1[a-z0-9]*\/projects\/my-proj\/locations\/us-central1\/publishers\/google\/models\/gemini-2\.5-flash:/,
    );
    assert.equal(steps[0].recorded.operation, stream ? 'vertex.streamGenerateContent' : 'vertex.generateContent');
  });
}

test('on Vertex AI a request the recording does not hold is refused on replay with a 409 [record.vertex.json -] [record.vertex.stream -]', async () => {
  const replay = await replayOfLoop('vertex', (baseUrl) => agentLoop(baseUrl, false, false, true), { upstream: { callIds: false } });
  try {
    const ai = client(replay.url('vertex'), true);
    const contents = 'What is the weather in Rome?';
    const refused = (error: unknown) => error instanceof ApiError && error.status === 409 && /latestUser/.test(error.message);
    await assert.rejects(ai.models.generateContent({ model: MODEL, contents, config: CONFIG }), refused);
    await assert.rejects(async () => {
      for await (const chunk of await ai.models.generateContentStream({ model: MODEL, contents, config: CONFIG })) void chunk;
    }, refused);
  } finally {
    await replay.close();
  }
});

/** Gemini's servers: each event `data: …` ended by CRLF CRLF, the usage a running total, a thought
 * signature on the call part, the model version and a response id on every chunk. */
function geminiServerAnswers(stream: boolean): CannedAnswer[] {
  const meta = (id: string) => ({ modelVersion: 'gemini-2.5-flash', responseId: id });
  const call = {
    candidates: [
      {
        content: {
          role: 'model',
          parts: [{ functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'CiQBVKhc7upstream' }],
        },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: { promptTokenCount: 60, candidatesTokenCount: 5, thoughtsTokenCount: 55, totalTokenCount: 120 },
    ...meta('resp-upstream-1'),
  };
  const first = {
    candidates: [{ content: { role: 'model', parts: [{ text: 'Paris is sunny' }] }, index: 0 }],
    usageMetadata: { promptTokenCount: 80, totalTokenCount: 80 },
  };
  const last = {
    candidates: [{ content: { role: 'model', parts: [{ text: ', 21 °C.' }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 80, cachedContentTokenCount: 64, candidatesTokenCount: 7, totalTokenCount: 87 },
  };
  if (!stream) {
    const whole = {
      ...last,
      candidates: [{ ...last.candidates[0], content: { role: 'model', parts: [{ text: 'Paris is sunny, 21 °C.' }] } }],
    };
    return [call, { ...whole, ...meta('resp-upstream-2') }].map((body) => ({
      contentType: 'application/json; charset=UTF-8',
      body: JSON.stringify(body),
    }));
  }
  const events = (...chunks: object[]) => chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join('');
  return [events(call), events({ ...first, ...meta('resp-upstream-2') }, { ...last, ...meta('resp-upstream-2') })].map((body) => ({
    contentType: 'text/event-stream',
    body,
  }));
}

/** What the application reads of a turn whose answer came from Gemini's own servers. */
function counted(turns: Turn[]): unknown[] {
  return turns.map(({ usage, ...turn }) => {
    const u = usage as Record<string, unknown>;
    const keys = ['promptTokenCount', 'cachedContentTokenCount', 'candidatesTokenCount', 'thoughtsTokenCount', 'totalTokenCount'];
    return { ...turn, usage: Object.fromEntries(keys.map((k) => [k, u[k] ?? 0])) };
  });
}

for (const [stream, tag] of [
  [false, '[record.gemini.json +]'],
  [true, '[record.gemini.stream +]'],
] as const) {
  test(`an answer as Gemini's servers write it (CRLF events, running usage, a thought signature) replays with the same text, calls, finish and counts (${stream ? 'stream' : 'json'}) ${tag}`, async () => {
    const { recorded } = await recordThenReplay({
      provider: 'gemini',
      session: 'gemini-server',
      canned: geminiServerAnswers(stream),
      loop: async (baseUrl) => counted(await agentLoop(baseUrl, stream)),
    });
    assert.deepEqual(recorded, [
      {
        thoughts: '',
        text: '',
        toolCalls: [{ name: 'weather', args: { city: 'Paris' } }],
        finish: 'STOP',
        usage: { promptTokenCount: 60, cachedContentTokenCount: 0, candidatesTokenCount: 5, thoughtsTokenCount: 55, totalTokenCount: 120 },
      },
      {
        thoughts: '',
        text: 'Paris is sunny, 21 °C.',
        toolCalls: [],
        finish: 'STOP',
        usage: { promptTokenCount: 80, cachedContentTokenCount: 64, candidatesTokenCount: 7, thoughtsTokenCount: 0, totalTokenCount: 87 },
      },
    ]);
  });
}

test('recorded with --record-match exact (the whole history in each when), the idless loop with thoughts replays the same [record.gemini.stream +]', async () => {
  for (const stream of [false, true]) {
    const { files } = await recordThenReplay({
      provider: 'gemini',
      session: `exact-${stream}`,
      match: 'exact',
      loop: (baseUrl) => agentLoop(baseUrl, stream, true),
      upstream: { callIds: false, reasoning: 'The user wants the weather first.' },
    });
    assert.match(files[0].text, /historyExact:/);
  }
});
