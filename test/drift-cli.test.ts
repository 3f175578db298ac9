// `understudy drift DIR --upstream NAME=URL` run as a user runs it, against a second Understudy as
// the upstream (decision 0017 item 9): recordings whose shape is what that upstream answered (OpenAI
// Chat, JSON and streamed; Anthropic Messages, JSON and streamed; a Bedrock ConverseStream, binary
// frames, with a Bedrock API key) are unchanged while the shape is, whatever the text (exit 0);
// when its script answers a tool call instead, each step is reported drifted with the field,
// event-type, finish reason and tool lines, and a model that is gone with its status and error
// (exit 1); a 429, a 500, a timeout, a stopped upstream, a provider without --upstream, SigV4
// Bedrock without AWS credentials and an unreadable file are "could not check" (exit 0, said so).
// Without a Bedrock API key a Bedrock step is signed with SigV4 by the AWS credential chain, and
// the signature holds for the upstream's host. Credentials come from the environment or --header
// and appear in no output.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import { anthropicMessages } from '../src/dialects/anthropic-messages/index.js';
import type { ChatDialect } from '../src/dialects/dialect.js';
import type { FixtureInput } from '../src/engine/spec.js';
import { openaiChat } from '../src/dialects/openai-chat/index.js';
import { bedrockConverse } from '../src/dialects/bedrock-converse/index.js';
import { answerShape } from '../src/dialects/wire-kit/answer-shape.js';
import { CREDENTIALS, credentialHeaders } from '../src/cli/drift-credentials.js';
import { CLIS, killChildren, ROOT, runCli, type Cli, type Run } from './support/cli-process.js';
import { startVerifyingUpstream } from './support/sigv4-upstream.js';

const SOURCE = CLIS[0] as Cli;
const ANTHROPIC_KEY = 'sk-ant-drift-secret-0001';

let mock: Understudy;
let session: UnderstudySession;
let dir: string;

const WEATHER = { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
const OPENAI_BODY = {
  model: 'gpt-4o',
  messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
  tools: [{ type: 'function', function: WEATHER }],
};
const ANTHROPIC_BODY = {
  model: 'claude-sonnet-4-5',
  max_tokens: 256,
  messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
  tools: [{ name: WEATHER.name, input_schema: WEATHER.parameters }],
};

/** The model named in a request whose model is gone by the time drift runs. */
const GONE = 'gpt-gone';
const TEXT: FixtureInput = { scenarios: [{ name: 'answers', exhausted: 'repeat_last', steps: [{ reply: { text: 'Paris is sunny.' } }] }] };
// The same shapes with other values: another text, in more pieces.
const OTHER_TEXT: FixtureInput = {
  scenarios: [{ name: 'answers', exhausted: 'repeat_last', steps: [{ reply: { text: 'Rain all day in Paris, I am afraid.' } }] }],
};
const TOOL_CALL: FixtureInput = {
  scenarios: [
    {
      name: 'gone',
      exhausted: 'repeat_last',
      steps: [{ when: { model: GONE }, reply: { error: { status: 404, message: `The model ${GONE} does not exist.` } } }],
    },
    { name: 'answers', exhausted: 'repeat_last', steps: [{ reply: { toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] } }] },
  ],
};

interface Exchange {
  provider: string;
  operation: string;
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  stream: boolean;
  /** Undefined to leave the reader out: finish reasons and tools are then not compared. */
  dialect?: ChatDialect;
}

const EXCHANGES: Record<string, Exchange> = {
  'openai-json': {
    provider: 'openai',
    operation: 'openai.chat.completions',
    path: '/chat/completions',
    headers: { 'content-type': 'application/json' },
    body: OPENAI_BODY,
    stream: false,
    dialect: openaiChat,
  },
  'openai-stream': {
    provider: 'openai',
    operation: 'openai.chat.completions',
    path: '/chat/completions',
    headers: { 'content-type': 'application/json' },
    body: { ...OPENAI_BODY, stream: true, stream_options: { include_usage: true } },
    stream: true,
    dialect: openaiChat,
  },
  'openai-gone': {
    provider: 'openai',
    operation: 'openai.chat.completions',
    path: '/chat/completions',
    headers: { 'content-type': 'application/json' },
    body: { ...OPENAI_BODY, model: GONE },
    stream: false,
    dialect: openaiChat,
  },
  'bedrock-stream': {
    provider: 'bedrock',
    operation: 'bedrock.converseStream',
    path: '/model/anthropic.claude-3-5-haiku-20241022-v1:0/converse-stream',
    headers: { 'content-type': 'application/json' },
    body: {
      messages: [{ role: 'user', content: [{ text: 'What is the weather in Paris?' }] }],
      toolConfig: { tools: [{ toolSpec: { name: WEATHER.name, inputSchema: { json: WEATHER.parameters } } }] },
    },
    stream: true,
    dialect: bedrockConverse,
  },
  'anthropic-json': {
    provider: 'anthropic',
    operation: 'anthropic.messages',
    path: '/v1/messages',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: ANTHROPIC_BODY,
    stream: false,
    dialect: anthropicMessages,
  },
  'anthropic-stream': {
    provider: 'anthropic',
    operation: 'anthropic.messages',
    path: '/v1/messages',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: { ...ANTHROPIC_BODY, stream: true },
    stream: true,
    dialect: anthropicMessages,
  },
};

function upstreamUrl(provider: string): string {
  return mock.url(provider);
}

/** What the upstream answers now, as a `recorded` member (the recorder's format). */
async function record(exchange: Exchange): Promise<Record<string, unknown>> {
  const credential: Record<string, string> =
    exchange.provider === 'anthropic' ? { 'x-api-key': session.apiKey } : { authorization: `Bearer ${session.apiKey}` };
  const answer = await fetch(`${upstreamUrl(exchange.provider)}${exchange.path}`, {
    method: 'POST',
    headers: { ...exchange.headers, ...credential },
    body: JSON.stringify(exchange.body),
    signal: AbortSignal.timeout(10_000),
  });
  const contentType = answer.headers.get('content-type') ?? '';
  // A binary stream (Bedrock's event stream) is read as latin1, one character per byte.
  const body = Buffer.from(await answer.arrayBuffer()).toString(contentType.includes('eventstream') ? 'latin1' : 'utf8');
  assert.equal(answer.status, 200, body);
  const reader = exchange.dialect?.readAnswer;
  const read = reader && (exchange.stream ? reader.stream(body) : reader.json(JSON.parse(body)));
  assert.ok(typeof read !== 'string', typeof read === 'string' ? read : undefined);
  const shape = answerShape(
    { status: answer.status, contentType: answer.headers.get('content-type') ?? '', body, stream: exchange.stream },
    read,
  );
  return {
    provider: exchange.provider,
    operation: exchange.operation,
    method: 'POST',
    path: exchange.path,
    headers: exchange.headers,
    body: exchange.body,
    stream: exchange.stream,
    status: answer.status,
    shape,
  };
}

const UPSTREAMS = () => [
  '--upstream',
  `openai=${upstreamUrl('openai')}`,
  '--upstream',
  `anthropic=${upstreamUrl('anthropic')}`,
  '--upstream',
  `bedrock=${upstreamUrl('bedrock')}`,
];

/** An AWS credential chain that finds nothing and asks no metadata service: no keys, no profile,
 * no config files, no container or web identity, instance metadata off. */
function awsChainAlone(dir: string): Record<string, string> {
  return {
    AWS_BEARER_TOKEN_BEDROCK: '',
    AWS_ACCESS_KEY_ID: '',
    AWS_SECRET_ACCESS_KEY: '',
    AWS_SESSION_TOKEN: '',
    AWS_PROFILE: '',
    AWS_REGION: '',
    AWS_DEFAULT_REGION: '',
    AWS_CONFIG_FILE: join(dir, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(dir, 'no-aws-credentials'),
    AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: '',
    AWS_CONTAINER_CREDENTIALS_FULL_URI: '',
    AWS_WEB_IDENTITY_TOKEN_FILE: '',
    AWS_EC2_METADATA_DISABLED: 'true',
  };
}

function drift(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runCli(SOURCE, ['drift', ...args], {
    env: { OPENAI_API_KEY: session.apiKey, ANTHROPIC_API_KEY: '', AWS_BEARER_TOKEN_BEDROCK: session.apiKey, ...env },
  });
}

before(async () => {
  mock = await startUnderstudy();
  session = await mock.session('drift-upstream');
  await session.load(TEXT, { replace: true });
  dir = await mkdtemp(join(tmpdir(), 'understudy-drift-'));
  // One file per provider, the stream steps in a subdirectory; a fixture without recordings and a
  // step without one beside them are skipped.
  const step = async (id: string) => ({ id, reply: { text: 'Paris is sunny.' }, recorded: await record(EXCHANGES[id]) });
  await writeFile(
    join(dir, 'openai.yaml'),
    stringify({
      scenarios: [
        { name: 'weather', steps: [await step('openai-json'), { id: 'hand-written', reply: { text: 'hi' } }, await step('openai-gone')] },
      ],
    }),
  );
  await writeFile(join(dir, 'anthropic.json'), JSON.stringify({ scenarios: [{ name: 'weather', steps: [await step('anthropic-json')] }] }));
  await mkdir(join(dir, 'streams'));
  await writeFile(
    join(dir, 'streams', 'both.yml'),
    stringify({ scenarios: [{ name: 'streamed', steps: [await step('openai-stream'), await step('anthropic-stream')] }] }),
  );
  await writeFile(
    join(dir, 'streams', 'bedrock.yaml'),
    stringify({ scenarios: [{ name: 'converse', steps: [await step('bedrock-stream')] }] }),
  );
  await writeFile(join(dir, 'plain-fixture.yaml'), stringify(TEXT));
  // Drift compares shapes, not values: the upstream answers another text from now on.
  await session.load(OTHER_TEXT, { replace: true });
  await writeFile(join(dir, 'notes.txt'), 'not a recording');
});

after(async () => {
  killChildren();
  await mock?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The lines of one step's report: its status line and the difference lines under it. */
function reportOf(stdout: string, step: string): string[] {
  const lines = stdout.split('\n');
  const at = lines.findIndex((l) => l.includes(` / ${step}`));
  assert.ok(at >= 0, `${step} is reported:\n${stdout}`);
  const out = [lines[at]];
  for (const line of lines.slice(at + 1)) {
    if (!line.startsWith('    ')) break;
    out.push(line.trim());
  }
  return out;
}

test('an unchanged shape is quiet, whatever the text: every recorded step unchanged, exit 0; no credential in the output', async () => {
  const run = await drift([dir, ...UPSTREAMS(), '--header', `anthropic:x-api-key=${session.apiKey}`]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  for (const id of Object.keys(EXCHANGES)) assert.deepEqual(reportOf(run.stdout, id).length, 1, run.stdout);
  for (const id of Object.keys(EXCHANGES)) assert.match(reportOf(run.stdout, id)[0], /^unchanged /);
  assert.doesNotMatch(run.stdout, /hand-written|plain-fixture|notes/);
  assert.match(run.stdout, /^6 recorded steps: 6 unchanged, 0 drifted, 0 could not be checked \(exit 0\)$/m);
  assert.ok(!(run.stdout + run.stderr).includes(session.apiKey), 'the key is not printed');
  assert.equal(run.stderr, '');
});

test('the upstream answers a tool call now: each step drifted with its field, finish reason and tool lines, exit 1', async () => {
  await session.load(TOOL_CALL, { replace: true });
  try {
    const run = await drift([dir, ...UPSTREAMS(), '--header', `anthropic:x-api-key=${session.apiKey}`]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const openai = reportOf(run.stdout, 'openai-json');
    assert.match(openai[0], /^drifted +.*openai\.yaml {2}weather \/ openai-json$/);
    assert.ok(openai.includes('field added: $.choices[].message.tool_calls (array)'), openai.join('\n'));
    assert.ok(openai.includes('type changed: $.choices[].message.content string → null'), openai.join('\n'));
    assert.ok(openai.includes('finish reason: stop → tool_calls'), openai.join('\n'));
    assert.ok(openai.includes('tools called: none → weather'), openai.join('\n'));
    const stream = reportOf(run.stdout, 'openai-stream');
    assert.ok(stream.includes('field added: data $.choices[].delta.tool_calls (array)'), stream.join('\n'));
    assert.ok(stream.includes('tools called: none → weather'), stream.join('\n'));
    const anthropic = reportOf(run.stdout, 'anthropic-json');
    assert.ok(anthropic.includes('field added: $.content[].name (string)'), anthropic.join('\n'));
    assert.ok(anthropic.includes('finish reason: stop → tool_calls'), anthropic.join('\n'));
    const anthropicStream = reportOf(run.stdout, 'anthropic-stream');
    assert.ok(
      anthropicStream.some((l) => l.startsWith('field added: content_block_delta $.delta.partial_json')),
      anthropicStream.join('\n'),
    );
    assert.ok(anthropicStream.includes('tools called: none → weather'), anthropicStream.join('\n'));
    const gone = reportOf(run.stdout, 'openai-gone');
    assert.deepEqual(gone.slice(1, 2), ['status: 200 → 404'], gone.join('\n'));
    assert.match(gone[2], /^answer: .*The model gpt-gone does not exist/);
    assert.equal(gone.length, 3, 'no field lines for an error body');
    const bedrock = reportOf(run.stdout, 'bedrock-stream');
    assert.ok(bedrock.includes('field added: contentBlockDelta $.delta.toolUse (object)'), bedrock.join('\n'));
    assert.ok(bedrock.includes('field added: contentBlockStart $ (object)'), 'a new event type, named once');
    assert.ok(
      bedrock.some(
        (l) => l.startsWith('event types: messageStart, contentBlockDelta, ') && l.includes('→ messageStart, contentBlockStart, '),
      ),
      bedrock.join('\n'),
    );
    assert.ok(bedrock.includes('tools called: none → weather'), bedrock.join('\n'));
    assert.match(run.stdout, /^6 recorded steps: 0 unchanged, 6 drifted, 0 could not be checked \(exit 1: drifted\)$/m);

    const json = await drift([dir, ...UPSTREAMS(), '--json'], { ANTHROPIC_API_KEY: session.apiKey });
    assert.equal(json.code, 1, json.stderr);
    const report = JSON.parse(json.stdout) as {
      results: { file: string; scenario: string; step: string; result: string; differences?: string[] }[];
      counts: Record<string, number>;
    };
    assert.deepEqual(report.counts, { unchanged: 0, drifted: 6, couldNotCheck: 0 });
    const entry = report.results.find((r) => r.step === 'anthropic-json');
    assert.equal(entry?.result, 'drifted');
    assert.equal(entry?.file, join(dir, 'anthropic.json'));
    assert.ok(entry?.differences?.includes('tools called: none → weather'));
  } finally {
    await session.load(OTHER_TEXT, { replace: true });
  }
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('a 429, a 500, a timeout, a stopped upstream, no --upstream, Bedrock and an unreadable file: could not check, exit 0', async () => {
  const other = await mkdtemp(join(tmpdir(), 'understudy-drift-unchecked-'));
  try {
    await session.load(
      {
        scenarios: [
          {
            name: 'limited',
            exhausted: 'repeat_last',
            steps: [{ when: { model: 'gpt-4o' }, reply: { error: { status: 429, message: 'Slow down.' } } }],
          },
          { name: 'slow', exhausted: 'repeat_last', steps: [{ when: { model: 'gpt-slow' }, reply: { text: 'late', delayMs: 5000 } }] },
          {
            name: 'broken',
            exhausted: 'repeat_last',
            steps: [{ when: { model: 'claude-sonnet-4-5' }, reply: { error: { status: 500, message: 'Boom.' } } }],
          },
        ],
      },
      { replace: true },
    );
    const base = parse(await readFile(join(dir, 'openai.yaml'), 'utf8')) as {
      scenarios: { steps: { recorded?: Record<string, unknown> }[] }[];
    };
    const openaiRecorded = base.scenarios[0].steps[0].recorded!;
    const anthropicRecorded = (JSON.parse(await readFile(join(dir, 'anthropic.json'), 'utf8')) as typeof base).scenarios[0].steps[0]
      .recorded!;
    const port = await closedPort();
    const steps = [
      { id: 'rate-limited', recorded: openaiRecorded },
      { id: 'server-error', recorded: anthropicRecorded },
      { id: 'too-slow', recorded: { ...openaiRecorded, body: { ...OPENAI_BODY, model: 'gpt-slow' } } },
      { id: 'stopped', recorded: { ...openaiRecorded, provider: 'groq', operation: 'groq.chat.completions' } },
      { id: 'no-upstream', recorded: { ...openaiRecorded, provider: 'gemini', operation: 'gemini.generateContent' } },
      { id: 'bedrock', recorded: { ...openaiRecorded, provider: 'bedrock', operation: 'bedrock.converse', path: '/model/m/converse' } },
      { id: 'no-shape', recorded: { ...openaiRecorded, shape: undefined } },
    ].map(({ id, recorded }) => ({ id, reply: { text: 'x' }, recorded }));
    await writeFile(join(other, 'unchecked.yaml'), stringify({ scenarios: [{ name: 'unchecked', steps }] }));
    await writeFile(join(other, 'broken.yaml'), 'scenarios: [ { name: "unclosed"\n');
    const run = await drift(
      [
        other,
        // Bedrock's upstream is this file's own, below: a name is given once.
        ...UPSTREAMS().slice(0, 4),
        '--upstream',
        `groq=http://127.0.0.1:${port}/openai/v1`,
        '--upstream',
        `bedrock=${mock.baseUrl}`,
        '--timeout-ms',
        '500',
      ],
      { ANTHROPIC_API_KEY: session.apiKey, ...awsChainAlone(other) },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const reason = (id: string) => {
      const [line] = reportOf(run.stdout, id);
      assert.match(line, /^could not check /, line);
      return line;
    };
    assert.match(reason('rate-limited'), /the upstream answered 429: .*Slow down/);
    assert.match(reason('server-error'), /the upstream answered 500/);
    assert.match(reason('too-slow'), /no answer within 500 ms/);
    assert.match(reason('stopped'), /network error: ECONNREFUSED/);
    assert.match(reason('no-upstream'), /no --upstream gemini=URL was given/);
    assert.match(
      reason('bedrock'),
      /without a Bedrock API key \(AWS_BEARER_TOKEN_BEDROCK\) is signed with SigV4, and signing it for the upstream takes AWS credentials of your own .*none were found .*AWS_PROFILE/,
    );
    assert.match(reason('no-shape'), /recorded\.shape is missing/);
    assert.match(
      run.stdout,
      new RegExp(`^could not check  ${join(other, 'broken.yaml').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not YAML or JSON`, 'm'),
    );
    assert.doesNotMatch(run.stdout, /^drifted/m);
    assert.match(
      run.stdout,
      /^7 recorded steps: 0 unchanged, 0 drifted, 7 could not be checked, 1 file unreadable \(exit 0: nothing drifted, not everything was checked\)$/m,
    );
    assert.ok(!(run.stdout + run.stderr).includes(session.apiKey));
  } finally {
    await session.load(OTHER_TEXT, { replace: true });
    await rm(other, { recursive: true, force: true });
  }
});

test("without a Bedrock API key a Bedrock step is signed with SigV4 by the AWS credential chain, valid for the upstream's host and the region AWS_REGION names: unchanged", async () => {
  const credentials = { accessKeyId: session.apiKey, secretAccessKey: 'drift-secret-6060' };
  const upstream = await startVerifyingUpstream(mock.url('bedrock'), credentials);
  try {
    const run = await drift([join(dir, 'streams', 'bedrock.yaml'), '--upstream', `bedrock=${upstream.url}`], {
      ...awsChainAlone(dir),
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_REGION: 'eu-central-1',
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(reportOf(run.stdout, 'bedrock-stream')[0], /^unchanged /);
    assert.equal(upstream.verdicts.length, 1);
    assert.ok(upstream.verdicts[0].valid, 'the signature holds for the upstream');
    assert.deepEqual(upstream.verdicts[0].scope, [session.apiKey, 'eu-central-1', 'bedrock']);
    assert.ok(!(run.stdout + run.stderr).includes(credentials.secretAccessKey));
  } finally {
    await upstream.close();
  }
});

test('bad usage exits 2 with one line: no directory, a bad --upstream, a bad --header (its value not echoed), a bad --timeout-ms', async () => {
  const cases: [string[], RegExp][] = [
    [[], /drift needs the directory of recordings/],
    [[dir, '--upstream', 'openai'], /--upstream must be NAME=URL/],
    [[dir, '--header', `openai-${ANTHROPIC_KEY}`], /--header must be NAME:HEADER=VALUE/],
    [[dir, '--timeout-ms', 'soon'], /--timeout-ms must be a positive integer/],
    [[join(dir, 'no-such-dir')], /no-such-dir is neither a directory nor a file/],
  ];
  for (const [args, message] of cases) {
    const run = await drift(args);
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stdout}${run.stderr}`);
    assert.match(run.stderr, message);
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    assert.ok(!run.stderr.includes(ANTHROPIC_KEY), 'a header value is not echoed');
  }
  const help = await runCli(SOURCE, ['help', 'drift']);
  assert.equal(help.code, 0);
  for (const flag of ['--upstream NAME=URL', '--header NAME:HEADER=VALUE', '--timeout-ms MS', '--json'])
    assert.ok(help.stdout.includes(flag), flag);
  assert.match(help.stdout, /Default: 60000\./);
  assert.match(help.stdout, /Exit code: 0 when nothing drifted .*1 when a step drifted, 2 for bad usage/);
  assert.match((await runCli(SOURCE, ['--help'])).stdout, /^ {2}drift +Re-send recorded requests/m);
});

test("the credential table: the first variable set wins, --header's are added, and docs/record-replay.md lists every row", async () => {
  assert.deepEqual(credentialHeaders('gemini', { GOOGLE_API_KEY: 'g', GEMINI_API_KEY: 'first' }), { 'x-goog-api-key': 'first' });
  assert.deepEqual(credentialHeaders('gemini', { GOOGLE_API_KEY: 'g', GEMINI_API_KEY: '' }), { 'x-goog-api-key': 'g' });
  assert.deepEqual(credentialHeaders('azure-v1', { AZURE_OPENAI_API_KEY: 'k' }), { 'api-key': 'k' });
  assert.deepEqual(credentialHeaders('openai', {}), {});
  assert.deepEqual(credentialHeaders('nobody', { OPENAI_API_KEY: 'k' }), {});
  const section = /## Checking for drift\n([\s\S]*)/.exec(await readFile(join(ROOT, 'docs/record-replay.md'), 'utf8'))?.[1] ?? '';
  for (const row of CREDENTIALS) {
    const line = section.split('\n').find((l) => l.startsWith('|') && row.providers.every((p) => l.includes(`\`${p}\``)));
    assert.ok(line, `a row names ${row.providers.join(', ')}`);
    for (const name of row.env) assert.ok(line.includes(`\`${name}\``), `${name} is in the row of ${row.providers.join(', ')}`);
    assert.ok(line.includes(`\`${row.header}: `) || line.includes(`\`${row.header}:`), `${row.header} is in the row`);
  }
});
