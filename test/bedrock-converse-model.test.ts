// The AWS SDK's model of Converse (@aws-sdk/client-bedrock-runtime's schemas: each structure and
// union with its member names) held against the dialect: at every place a structure sits in a
// request, each member the model lists is one Understudy knows (a probe value in it may be refused
// for its type, never as an unknown member), and a name the model lacks is refused naming it. In
// the current-SDK lane the same test holds a newer model to the dialect, so a member Bedrock adds
// fails here until it is read. The bodies go with fetch: the client's serializer would drop a
// member its model lacks.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import * as bedrock from '@aws-sdk/client-bedrock-runtime';

import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';

type Body = Record<string, unknown>;
type Obj = Record<string, unknown>;

const MODEL = 'anthropic.claude-3-haiku-20240307-v1:0';
const HI = [{ role: 'user', content: [{ text: 'Hi' }] }];
const SPEC = { name: 'weather', inputSchema: { json: { type: 'object' } } };
const TOOLS = { tools: [{ toolSpec: SPEC }] };
const withContent = (block: Obj, role = 'user'): Body =>
  role === 'user' ? { messages: [{ role: 'user', content: [block] }] } : { messages: [...HI, { role: 'assistant', content: [block] }] };
const inUserContent = (block: Obj): Body => ({ toolConfig: TOOLS, ...withContent(block) });
const toolResult = (extra: Obj): Body => ({
  toolConfig: TOOLS,
  messages: [
    ...HI,
    { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'weather', input: {} } }] },
    { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'ok' }], ...extra } }] },
  ],
});
const textFormat = (extra: Obj): Body => ({
  messages: HI,
  outputConfig: { textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: '{"type":"object"}' } }, ...extra } },
});

/** Where each structure of the model sits in a request, with the members a valid one needs; a
 * union is placed alone (`union: true`): its probe is the one member set. */
interface Place {
  schema: string;
  operation?: 'converse' | 'converse-stream' | 'count-tokens';
  union?: boolean;
  /** The request with `o` (the structure's members, or the one member of a union) in its place. */
  at(o: Obj): Body;
  /** Members the model has that the request path does not take (the model id travels in the URL). */
  skip?: string[];
}

const PLACES: Place[] = [
  { schema: 'ConverseRequest', at: (o) => ({ messages: HI, ...o }), skip: ['modelId'] },
  { schema: 'ConverseStreamRequest', operation: 'converse-stream', at: (o) => ({ messages: HI, ...o }), skip: ['modelId'] },
  { schema: 'Message', at: (o) => ({ messages: [{ role: 'user', content: [{ text: 'Hi' }], ...o }] }) },
  { schema: 'ContentBlock', union: true, at: (o) => inUserContent(o) },
  { schema: 'SystemContentBlock', union: true, at: (o) => ({ messages: HI, system: [o] }) },
  { schema: 'InferenceConfiguration', at: (o) => ({ messages: HI, inferenceConfig: o }) },
  { schema: 'ToolConfiguration', at: (o) => ({ messages: HI, toolConfig: { ...TOOLS, ...o } }) },
  { schema: 'Tool', union: true, at: (o) => ({ messages: HI, toolConfig: { tools: [o] } }) },
  { schema: 'ToolSpecification', at: (o) => ({ messages: HI, toolConfig: { tools: [{ toolSpec: { ...SPEC, ...o } }] } }) },
  {
    schema: 'ToolInputSchema',
    union: true,
    at: (o) => ({ messages: HI, toolConfig: { tools: [{ toolSpec: { name: 'w', inputSchema: o } }] } }),
  },
  { schema: 'ToolChoice', union: true, at: (o) => ({ messages: HI, toolConfig: { ...TOOLS, toolChoice: o } }) },
  {
    schema: 'SpecificToolChoice',
    at: (o) => ({ messages: HI, toolConfig: { ...TOOLS, toolChoice: { tool: { name: 'weather', ...o } } } }),
  },
  { schema: 'OutputConfig', at: (o) => ({ messages: HI, outputConfig: o }) },
  { schema: 'OutputFormat', at: (o) => textFormat(o) },
  { schema: 'OutputFormatStructure', union: true, at: (o) => textFormat({ structure: o }) },
  { schema: 'JsonSchemaDefinition', at: (o) => textFormat({ structure: { jsonSchema: { schema: '{"type":"object"}', ...o } } }) },
  { schema: 'GuardrailConfiguration', at: (o) => ({ messages: HI, guardrailConfig: o }) },
  { schema: 'GuardrailStreamConfiguration', operation: 'converse-stream', at: (o) => ({ messages: HI, guardrailConfig: o }) },
  { schema: 'PerformanceConfiguration', at: (o) => ({ messages: HI, performanceConfig: o }) },
  { schema: 'ServiceTier', at: (o) => ({ messages: HI, serviceTier: { type: 'default', ...o } }) },
  { schema: 'ImageBlock', at: (o) => withContent({ image: { format: 'png', source: { bytes: 'AA==' }, ...o } }) },
  { schema: 'ImageSource', union: true, at: (o) => withContent({ image: { format: 'png', source: o } }) },
  { schema: 'S3Location', at: (o) => withContent({ image: { format: 'png', source: { s3Location: { uri: 's3://b/k', ...o } } } }) },
  { schema: 'DocumentBlock', at: (o) => withContent({ document: { name: 'd', source: { text: 'x' }, ...o } }) },
  { schema: 'DocumentSource', union: true, at: (o) => withContent({ document: { name: 'd', source: o } }) },
  {
    schema: 'CitationsConfig',
    at: (o) => withContent({ document: { name: 'd', source: { text: 'x' }, citations: { enabled: true, ...o } } }),
  },
  { schema: 'VideoBlock', at: (o) => withContent({ video: { format: 'mp4', source: { s3Location: { uri: 's3://b/v' } }, ...o } }) },
  { schema: 'AudioBlock', at: (o) => withContent({ audio: { format: 'mp3', source: { s3Location: { uri: 's3://b/a' } }, ...o } }) },
  {
    schema: 'ToolUseBlock',
    at: (o) => ({
      ...toolResult({}),
      messages: [
        ...HI,
        { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'weather', input: {}, ...o } }] },
        (toolResult({}).messages as unknown[])[2],
      ],
    }),
  },
  { schema: 'ToolResultBlock', at: (o) => toolResult(o) },
  { schema: 'ToolResultContentBlock', union: true, at: (o) => toolResult({ content: [o] }) },
  { schema: 'CachePointBlock', at: (o) => ({ messages: HI, system: [{ text: 's' }, { cachePoint: { type: 'default', ...o } }] }) },
  { schema: 'ReasoningContentBlock', union: true, at: (o) => withContent({ reasoningContent: o }, 'assistant') },
  { schema: 'ReasoningTextBlock', at: (o) => withContent({ reasoningContent: { reasoningText: { text: 'r', ...o } } }, 'assistant') },
  { schema: 'SearchResultBlock', at: (o) => withContent({ searchResult: { source: 's', title: 't', content: [{ text: 'x' }], ...o } }) },
  { schema: 'GuardrailConverseContentBlock', union: true, at: (o) => withContent({ guardContent: o }) },
  { schema: 'GuardrailConverseTextBlock', at: (o) => withContent({ guardContent: { text: { text: 'g', ...o } } }) },
  { schema: 'ConverseTokensRequest', operation: 'count-tokens', at: (o) => ({ input: { converse: { messages: HI, ...o } } }) },
  { schema: 'CountTokensInput', operation: 'count-tokens', union: true, at: (o) => ({ input: o }) },
];

/** The member names the SDK's schema lists for structure or union `name` (its `Name$` export). */
function modelMembers(name: string): string[] {
  const schema = (bedrock as unknown as Record<string, unknown>)[`${name}$`];
  assert.ok(Array.isArray(schema) && Array.isArray(schema[4]), `the SDK exports no schema ${name}$`);
  return schema[4] as string[];
}

/** A value no member takes as valid in every place it goes, but every member reads: an object. */
const PROBE = { understudyProbe: 1 };
const UNKNOWN = 'understudyNotAMember';

let mock: Understudy;
let session: UnderstudySession;
before(async () => {
  mock = await startUnderstudy();
  session = await mock.session('converse-model', { fallback: 'auto' });
});
after(async () => {
  await mock.close();
});

async function post(operation: Place['operation'], body: Body): Promise<{ status: number; message: string }> {
  const response = await fetch(`${mock.url('bedrock')}/model/${encodeURIComponent(MODEL)}/${operation ?? 'converse'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session.apiKey}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, message: response.status === 200 ? '' : ((JSON.parse(text) as { message?: string }).message ?? text) };
}

const unknownMember = (key: string) => `(unknown member '${key}')`;

test('every place: the request as placed, without a probe, is answered (the places are valid requests)', async () => {
  for (const place of PLACES.filter((p) => !p.union)) {
    const answer = await post(place.operation, place.at({}));
    assert.equal(answer.status, 200, `${place.schema}: ${answer.message}`);
  }
});

test('every member of every structure and union the SDK models is read, never refused as unknown', async () => {
  let probed = 0;
  for (const place of PLACES) {
    for (const member of modelMembers(place.schema)) {
      if (place.skip?.includes(member)) continue;
      const answer = await post(place.operation, place.at({ [member]: PROBE }));
      assert.ok(!answer.message.includes(unknownMember(member)), `${place.schema}.${member} refused as unknown: ${answer.message}`);
      probed++;
    }
  }
  assert.ok(probed > 100, `${probed} members probed`);
});

test('a name the model lacks is refused as an unknown member at every place', async () => {
  for (const place of PLACES) {
    const answer = await post(place.operation, place.at({ [UNKNOWN]: 1 }));
    assert.equal(answer.status, 400, `${place.schema}: ${answer.message}`);
    assert.ok(answer.message.includes(unknownMember(UNKNOWN)), `${place.schema}: ${answer.message}`);
  }
});
