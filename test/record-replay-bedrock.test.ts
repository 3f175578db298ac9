// Record and replay through the real @aws-sdk/client-bedrock-runtime's Converse (issue 22), in its
// bearer-token mode (a Bedrock API key, `AWS_BEARER_TOKEN_BEDROCK`): an agent loop of toolUse and
// toolResult blocks, recorded from a local upstream, replays with the upstream stopped and gives the
// client the same results through Converse and ConverseStream; and in its SigV4 mode, whose requests
// record mode signs again for the upstream with the recorder's own credentials (its signature covered
// Understudy's host). Without credentials to sign with, record mode refuses it with a 501.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  BedrockRuntimeServiceException,
  ConverseCommand,
  ConverseStreamCommand,
  type ContentBlock,
  type Message,
  type Tool,
} from '@aws-sdk/client-bedrock-runtime';

import { startUnderstudy } from '../src/client/index.js';
import { eventFrame } from '../src/dialects/bedrock/event-stream.js';
import { bedrockClient } from './support/bedrock.js';
import {
  type CannedAnswer,
  CLOCK_TOOL,
  FINAL_TEXT,
  recordingDir,
  recordThenReplay,
  replayOfLoop,
  startUpstream,
  toolResult,
  UPSTREAM_KEY,
  WEATHER_TOOL,
} from './support/record-replay.js';

const MODEL = 'anthropic.claude-3-5-sonnet-20240620-v1:0';
const TOOLS: Tool[] = [WEATHER_TOOL, CLOCK_TOOL].map((t) => ({
  toolSpec: { name: t.name, description: t.description, inputSchema: { json: t.parameters } },
}));

interface Turn {
  text: string;
  toolCalls: { id: string | undefined; name: string | undefined; input: unknown }[];
  stopReason: string | undefined;
  usage: unknown;
}

/** Which HTTP the client speaks: its HTTP/1.1 handler, or its default, cleartext HTTP/2 (whose
 * pseudo-headers record mode must not forward: the HTTP/2 test below). */
type Http = 'http1' | 'http2';

/** How the application authenticates: a Bedrock API key (forwarded as it is) or SigV4 with its own
 * access key, which the upstream never sees: the recorder signs again with `RECORDER_AWS`. */
type Auth = 'bearer' | 'sigv4';
const APPLICATION_KEY_ID = 'AKIAAPPLICATION';
/** The recorder's own credentials: the upstream (a second Understudy) finds its session by the
 * access key id, so it is the upstream session's key. */
const RECORDER_AWS = { accessKeyId: UPSTREAM_KEY, secretAccessKey: 'recorder-secret-9191' };

function client(endpoint: string, http: Http = 'http1', auth: Auth = 'bearer') {
  return bedrockClient({ url: () => endpoint }, auth === 'bearer' ? { token: UPSTREAM_KEY, http } : { apiKey: APPLICATION_KEY_ID, http });
}

/** One turn as the application sees it, with the message it sends back. */
async function turnOf(
  endpoint: string,
  messages: Message[],
  stream: boolean,
  http: Http,
  auth: Auth,
): Promise<{ turn: Turn; message: Message }> {
  const input = {
    modelId: MODEL,
    messages,
    toolConfig: { tools: TOOLS },
    requestMetadata: { endUser: 'end-user-77' },
  };
  const bedrock = client(endpoint, http, auth);
  try {
    if (!stream) {
      const answer = await bedrock.send(new ConverseCommand(input));
      const content = answer.output?.message?.content ?? [];
      return { turn: turnFrom(content, answer.stopReason, answer.usage), message: { role: 'assistant', content } };
    }
    const answer = await bedrock.send(new ConverseStreamCommand(input));
    const content: ContentBlock[] = [];
    const argumentTexts: string[] = [];
    let stopReason: string | undefined;
    let usage: unknown;
    for await (const event of answer.stream ?? []) {
      if (event.contentBlockStart?.start?.toolUse) {
        const { toolUseId, name } = event.contentBlockStart.start.toolUse;
        content[event.contentBlockStart.contentBlockIndex ?? 0] = { toolUse: { toolUseId, name, input: undefined } };
      } else if (event.contentBlockDelta) {
        const at = event.contentBlockDelta.contentBlockIndex ?? 0;
        const delta = event.contentBlockDelta.delta;
        if (delta?.text !== undefined) content[at] = { text: (content[at]?.text ?? '') + delta.text };
        if (delta?.toolUse?.input !== undefined) argumentTexts[at] = (argumentTexts[at] ?? '') + delta.toolUse.input;
      } else if (event.messageStop) stopReason = event.messageStop.stopReason;
      else if (event.metadata) usage = event.metadata.usage;
    }
    content.forEach((block, at) => {
      if (block.toolUse) block.toolUse.input = JSON.parse(argumentTexts[at] ?? '{}');
    });
    return { turn: turnFrom(content, stopReason, usage), message: { role: 'assistant', content } };
  } finally {
    bedrock.destroy();
  }
}

function turnFrom(content: ContentBlock[], stopReason: string | undefined, usage: unknown): Turn {
  return {
    text: content.map((b) => b.text ?? '').join(''),
    toolCalls: content.flatMap((b) => (b.toolUse ? [{ id: b.toolUse.toolUseId, name: b.toolUse.name, input: b.toolUse.input }] : [])),
    stopReason,
    usage: usage && { ...usage },
  };
}

async function agentLoop(endpoint: string, stream: boolean, http: Http = 'http1', auth: Auth = 'bearer'): Promise<Turn[]> {
  const messages: Message[] = [{ role: 'user', content: [{ text: 'What is the weather in Paris, and the time?' }] }];
  const turns: Turn[] = [];
  for (let round = 0; round < 4; round++) {
    const { turn, message } = await turnOf(endpoint, messages, stream, http, auth);
    turns.push(turn);
    messages.push(message);
    if (turn.toolCalls.length === 0) break;
    messages.push({
      role: 'user',
      content: turn.toolCalls.map((c) => ({ toolResult: { toolUseId: c.id, content: [{ text: toolResult(c.name ?? '') }] } })),
    });
  }
  return turns;
}

for (const [stream, auth, tag] of [
  [false, 'bearer', '[record.bedrock-converse.json +]'],
  [true, 'bearer', '[record.bedrock-converse.stream +]'],
  [false, 'sigv4', '[record.bedrock-converse.json +]'],
  [true, 'sigv4', '[record.bedrock-converse.stream +]'],
] as const) {
  const mode = stream ? 'stream' : 'json';
  const how = auth === 'bearer' ? 'with a Bedrock API key' : "signed with SigV4 (signed again with the recorder's credentials)";
  test(`a Converse agent loop recorded from the upstream ${how} replays with the upstream stopped, the client seeing the same results (${mode}) ${tag}`, async () => {
    const { recorded } = await recordThenReplay({
      provider: 'bedrock',
      session: `converse-loop-${auth}`,
      loop: (endpoint) => agentLoop(endpoint, stream, 'http1', auth),
      redact: ['$.requestMetadata'],
      secrets: ['end-user-77', APPLICATION_KEY_ID, RECORDER_AWS.secretAccessKey],
      ...(auth === 'sigv4' && { record: { aws: { credentials: RECORDER_AWS } } }),
    });
    assert.deepEqual(
      recorded.map((t) => t.toolCalls.map((c) => [c.id, c.name, c.input])),
      [[['call_weather_1', 'weather', { city: 'Paris' }]], [['call_clock_2', 'clock', { zone: 'Europe/Paris' }]], []],
    );
    assert.deepEqual(
      recorded.map((t) => t.stopReason),
      ['tool_use', 'tool_use', 'end_turn'],
    );
    assert.equal(recorded[2].text, FINAL_TEXT);
    const usage = recorded[2].usage as Record<string, unknown>;
    assert.deepEqual(
      [usage.inputTokens, usage.cacheReadInputTokens, usage.outputTokens],
      [1234 - 1024, 1024, 56],
      "the upstream's own counts",
    );
  });
}

test('a Converse request the recording does not hold is refused on replay with a 409 [record.bedrock-converse.json -] [record.bedrock-converse.stream -]', async () => {
  const replay = await replayOfLoop('bedrock', (endpoint) => agentLoop(endpoint, false));
  const bedrock = client(replay.url('bedrock'));
  try {
    const input = {
      modelId: MODEL,
      messages: [{ role: 'user' as const, content: [{ text: 'What is the weather in Rome?' }] }],
      toolConfig: { tools: TOOLS },
    };
    const refused = (error: unknown) => error instanceof BedrockRuntimeServiceException && error.$metadata.httpStatusCode === 409;
    await assert.rejects(bedrock.send(new ConverseCommand(input)), refused);
    await assert.rejects(bedrock.send(new ConverseStreamCommand(input)), refused);
  } finally {
    bedrock.destroy();
    await replay.close();
  }
});

test('record mode refuses a SigV4-signed request with a 501 naming what is missing when it has no credentials to sign with, and sends nothing upstream [record.bedrock-converse.json -]', async () => {
  const upstream = await startUpstream();
  const recorder = await startUnderstudy({
    record: {
      dir: recordingDir(),
      upstreams: { bedrock: upstream.mock.url('bedrock') },
      aws: { credentials: () => Promise.reject(new Error('the profile "recorder" is not in the config file')) },
    },
  });
  const signed = bedrockClient(recorder, { apiKey: APPLICATION_KEY_ID });
  try {
    const messages: Message[] = [{ role: 'user', content: [{ text: 'What is the weather in Paris, and the time?' }] }];
    await assert.rejects(
      signed.send(new ConverseCommand({ modelId: MODEL, messages, toolConfig: { tools: TOOLS } })),
      (error: unknown) =>
        error instanceof BedrockRuntimeServiceException &&
        error.$metadata.httpStatusCode === 501 &&
        /AWS credentials of your own .*none were found \(the profile "recorder" is not in the config file\)/.test(error.message) &&
        /AWS_PROFILE/.test(error.message),
    );
    assert.equal(await upstream.requests(), 0);
  } finally {
    signed.destroy();
    await recorder.close();
    await upstream.mock.close();
  }
});

test("an agent loop recorded through the client's default HTTP/2 replays the same, JSON and stream [record.bedrock-converse.stream +]", async () => {
  for (const stream of [false, true]) {
    await recordThenReplay({
      provider: 'bedrock',
      session: `converse-h2-${stream}`,
      loop: (endpoint) => agentLoop(endpoint, stream, 'http2'),
    });
  }
});

/** Bedrock's servers: Converse's body with its metrics, or ConverseStream's event frames, each
 * event carrying the `p` padding, text deltas with no contentBlockStart, the tool's input in
 * fragments, and the usage with cache counts on the closing metadata event. */
function bedrockServerAnswers(stream: boolean): CannedAnswer[] {
  const usage = (input: number, output: number) => ({
    inputTokens: input,
    outputTokens: output,
    totalTokens: input + 48 + output,
    cacheReadInputTokens: 48,
    cacheWriteInputTokens: 0,
  });
  const use = { toolUseId: 'tooluse_UpstreamBedrock1', name: 'weather', input: { city: 'Paris' } };
  if (!stream) {
    return [
      {
        output: { message: { role: 'assistant', content: [{ toolUse: use }] } },
        stopReason: 'tool_use',
        usage: usage(400, 40),
        metrics: { latencyMs: 812 },
      },
      {
        output: { message: { role: 'assistant', content: [{ text: 'Paris is sunny, 21 °C.' }] } },
        stopReason: 'end_turn',
        usage: usage(460, 12),
        metrics: { latencyMs: 377 },
      },
    ].map((body) => ({ contentType: 'application/json', body: JSON.stringify(body) }));
  }
  const frames = (...events: [string, Record<string, unknown>][]) =>
    Buffer.from(
      events
        .map(([type, payload]) =>
          eventFrame(type, JSON.stringify({ ...payload, p: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXY' })),
        )
        .join(''),
      'latin1',
    );
  return [
    frames(
      ['messageStart', { role: 'assistant' }],
      ['contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { toolUseId: use.toolUseId, name: use.name } } }],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '{"city":' } } }],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: ' "Paris"}' } } }],
      ['contentBlockStop', { contentBlockIndex: 0 }],
      ['messageStop', { stopReason: 'tool_use' }],
      ['metadata', { usage: usage(400, 40), metrics: { latencyMs: 812 } }],
    ),
    frames(
      ['messageStart', { role: 'assistant' }],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Paris is sunny' } }],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: ', 21 °C.' } }],
      ['contentBlockStop', { contentBlockIndex: 0 }],
      ['messageStop', { stopReason: 'end_turn' }],
      ['metadata', { usage: usage(460, 12), metrics: { latencyMs: 377 } }],
    ),
  ].map((body) => ({ contentType: 'application/vnd.amazon.eventstream', body }));
}

for (const [stream, tag] of [
  [false, '[record.bedrock-converse.json +]'],
  [true, '[record.bedrock-converse.stream +]'],
] as const) {
  test(`an answer as Bedrock's servers write it (padded event frames, the tool input in fragments, cache counts) replays with the same calls, stop reasons and usage (${stream ? 'stream' : 'json'}) ${tag}`, async () => {
    const { recorded } = await recordThenReplay({
      provider: 'bedrock',
      session: 'bedrock-server',
      canned: bedrockServerAnswers(stream),
      loop: (endpoint) => agentLoop(endpoint, stream),
    });
    const usage = (input: number, output: number) => ({
      inputTokens: input,
      outputTokens: output,
      totalTokens: input + 48 + output,
      cacheReadInputTokens: 48,
      cacheWriteInputTokens: 0,
    });
    assert.deepEqual(recorded, [
      {
        text: '',
        toolCalls: [{ id: 'tooluse_UpstreamBedrock1', name: 'weather', input: { city: 'Paris' } }],
        stopReason: 'tool_use',
        usage: usage(400, 40),
      },
      { text: 'Paris is sunny, 21 °C.', toolCalls: [], stopReason: 'end_turn', usage: usage(460, 12) },
    ]);
  });
}

test("a SigV4 agent loop through the client's default HTTP/2 is signed again and replays the same", async () => {
  await recordThenReplay({
    provider: 'bedrock',
    session: 'converse-h2-sigv4',
    loop: (endpoint) => agentLoop(endpoint, false, 'http2', 'sigv4'),
    redact: ['$.requestMetadata'],
    secrets: ['end-user-77', APPLICATION_KEY_ID, RECORDER_AWS.secretAccessKey],
    record: { aws: { credentials: RECORDER_AWS } },
  });
});
