// The shape `understudy drift` compares (decision 0017 item 9): an answer's shape is the same for
// any values of the same structure (JSON, SSE, NDJSON and AWS event-stream frames, consecutive
// repeats of an event counting once), and a field added, removed or retyped anywhere in it is
// reported exactly once, with its path (fast-check over structures); the finish reason, tools,
// status and content type are compared as the lines a person reads.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { isNeutralError } from '../src/core/errors.js';
import type { ChatRequest, Reply } from '../src/core/model.js';
import { anthropicMessages } from '../src/dialects/anthropic-messages/index.js';
import { readMessageStream } from '../src/dialects/anthropic-messages/read-answer.js';
import { eventFrame } from '../src/dialects/bedrock/event-stream.js';
import type { DialectEncodeContext, WireContext } from '../src/dialects/dialect.js';
import { openaiChat } from '../src/dialects/openai-chat/index.js';
import { readChatAnswer } from '../src/dialects/openai-chat/read-answer.js';
import { answerShape, shapeDifferences, type AnswerShape } from '../src/dialects/wire-kit/answer-shape.js';
import { resolveReply } from '../src/engine/resolve.js';

// A structure: what a JSON value's shape is made of; values are drawn from it.
type Structure =
  | { kind: 'string' | 'number' | 'boolean' | 'null' }
  | { kind: 'array'; element: Structure }
  | { kind: 'object'; members: [string, Structure][] };

const LEAVES = ['string', 'number', 'boolean', 'null'] as const;
// Keys that need quoting in a path (a dot, a space, a quote) as well as plain ones.
const KEY = fc.oneof(fc.constantFrom('id', 'text', 'a-b', 'x_1', 'a.b', 'two words', 'q"t', '[]', '$'), fc.string({ maxLength: 6 }));

const { structure } = fc.letrec<{ structure: Structure; object: Structure }>((tie) => ({
  structure: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...LEAVES).map((kind): Structure => ({ kind })),
    tie('object'),
    tie('structure').map((element): Structure => ({ kind: 'array', element })),
  ),
  object: fc
    .uniqueArray(fc.tuple(KEY, tie('structure')), { selector: ([k]) => k, maxLength: 4 })
    .map((members): Structure => ({ kind: 'object', members })),
}));
const rootObject = fc
  .uniqueArray(fc.tuple(KEY, structure), { selector: ([k]) => k, minLength: 1, maxLength: 4 })
  .map((members): Structure & { kind: 'object' } => ({ kind: 'object', members }));

/** A value of the structure, its arrays never empty (an empty array has no element shape). */
function valueOf(s: Structure): fc.Arbitrary<unknown> {
  switch (s.kind) {
    case 'string':
      return fc.string();
    case 'number':
      return fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueOf(s.element), { minLength: 1, maxLength: 3 });
    case 'object':
      return fc.tuple(...s.members.map(([, m]) => valueOf(m))).map((values) => {
        const out: Record<string, unknown> = {};
        s.members.forEach(([k], i) => Object.defineProperty(out, k, { value: values[i], enumerable: true, writable: true }));
        return out;
      });
  }
}

/** Two values of one structure. */
const twoValues = rootObject.chain((s) => fc.tuple(valueOf(s), valueOf(s)));

const json = (value: unknown): AnswerShape =>
  answerShape({ status: 200, contentType: 'application/json', body: JSON.stringify(value), stream: false });

test('a JSON shape is the same for any values of the same structure, and no difference is reported', () => {
  fc.assert(
    fc.property(twoValues, ([a, b]) => {
      assert.deepEqual(json(a), json(b));
      assert.deepEqual(shapeDifferences(json(a), json(b)), []);
    }),
  );
});

/** The events of a stream: each a type and a structure, repeated a number of times. */
const streamOf = fc
  .uniqueArray(fc.tuple(fc.constantFrom('message_start', 'delta', 'stop', 'ping'), rootObject), {
    selector: ([t]) => t,
    minLength: 1,
    maxLength: 4,
  })
  .chain((kinds) =>
    fc.tuple(
      ...[0, 1].map(() =>
        fc.tuple(...kinds.map(([type, s]) => fc.array(valueOf(s), { minLength: 1, maxLength: 3 }).map((values) => ({ type, values })))),
      ),
    ),
  );

function sse(events: { type: string; values: unknown[] }[], named: boolean): string {
  return events
    .flatMap(({ type, values }) =>
      values.map((v) => `${named ? `event: ${type}\n` : ''}data: ${JSON.stringify(named ? v : { ...(v as object), type })}\n\n`),
    )
    .join('');
}

test('a stream shape is the same for any values and any number of repeats of its events (SSE, NDJSON, AWS event stream)', () => {
  fc.assert(
    fc.property(streamOf, fc.boolean(), ([a, b], named) => {
      const shape = (body: string, contentType: string) => answerShape({ status: 200, contentType, body, stream: true });
      const sseA = shape(sse(a, named), 'text/event-stream; charset=utf-8');
      assert.deepEqual(sseA, shape(sse(b, named), 'text/event-stream'));
      assert.deepEqual(
        sseA.events,
        a.map((e) => e.type),
      );
      const ndjson = (events: typeof a) =>
        shape(
          events.flatMap(({ type, values }) => values.map((v) => `${JSON.stringify({ ...(v as object), type })}\n`)).join(''),
          'application/x-ndjson',
        );
      assert.deepEqual(ndjson(a), ndjson(b));
      const frames = (events: typeof a) =>
        shape(
          events.flatMap(({ type, values }) => values.map((v) => eventFrame(type, JSON.stringify(v)))).join(''),
          'application/vnd.amazon.eventstream',
        );
      assert.deepEqual(frames(a), frames(b));
      assert.deepEqual(
        frames(a).events,
        a.map((e) => e.type),
      );
      assert.deepEqual(shapeDifferences(frames(a), frames(b)), []);
    }),
  );
});

/** Paths to every object of a structure (where a member can be added), and to every member. */
function objectPaths(s: Structure, path: (string | number)[] = []): (string | number)[][] {
  if (s.kind === 'object') return [path, ...s.members.flatMap(([, m], i) => objectPaths(m, [...path, i]))];
  if (s.kind === 'array') return objectPaths(s.element, [...path, 'element']);
  return [];
}
function memberPaths(s: Structure, path: (string | number)[] = []): (string | number)[][] {
  if (s.kind === 'object') return s.members.flatMap(([, m], i) => [[...path, i], ...memberPaths(m, [...path, i])]);
  if (s.kind === 'array') return memberPaths(s.element, [...path, 'element']);
  return [];
}
function at(s: Structure, path: (string | number)[]): Structure {
  let node = s;
  for (const step of path)
    node =
      step === 'element'
        ? (node as { element: Structure }).element
        : (node as { members: [string, Structure][] }).members[step as number][1];
  return node;
}
/** The path of a member as a shape writes it, e.g. `$.choices[].message["a b"]`. */
function written(s: Structure, path: (string | number)[]): string {
  let out = '$';
  let node = s;
  for (const step of path) {
    if (step === 'element') {
      out += '[]';
      node = (node as { element: Structure }).element;
    } else {
      const [key, inner] = (node as { members: [string, Structure][] }).members[step as number];
      out += /^[A-Za-z0-9_-]+$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
      node = inner;
    }
  }
  return out;
}

const ADDED_KEY = 'added_member';

/** A structure, one with a member added to one of its objects, and the member's path. */
const withAddedMember = rootObject.chain((s) =>
  fc.tuple(fc.constantFrom(...objectPaths(s)), structure).map(([path, member]) => {
    const changed = structuredClone(s);
    (at(changed, path) as { members: [string, Structure][] }).members.push([ADDED_KEY, member]);
    return { before: s, after: changed, path: `${written(s, path)}.${ADDED_KEY}`, type: member.kind };
  }),
);

test('a member added anywhere is reported once as added, and once as removed the other way round', () => {
  fc.assert(
    fc.property(
      withAddedMember.chain((c) => fc.tuple(fc.constant(c), valueOf(c.before), valueOf(c.after))),
      ([{ path, type }, before, after]) => {
        assert.deepEqual(shapeDifferences(json(before), json(after)), [`field added: ${path} (${type})`]);
        assert.deepEqual(shapeDifferences(json(after), json(before)), [`field removed: ${path} (${type})`]);
      },
    ),
  );
});

/** A structure and one with a member's kind changed to another one. */
const withRetypedMember = rootObject
  .filter((s) => memberPaths(s).length > 0)
  .chain((s) =>
    fc
      .tuple(fc.constantFrom(...memberPaths(s)), structure)
      .filter(([path, to]) => to.kind !== at(s, path).kind)
      .map(([path, to]) => {
        const changed = structuredClone(s);
        const parentPath = path.slice(0, -1);
        const parent = at(changed, parentPath) as { members: [string, Structure][] };
        const index = path[path.length - 1] as number;
        parent.members[index] = [parent.members[index][0], to];
        return { before: s, after: changed, path: written(s, path), from: at(s, path).kind, to: to.kind };
      }),
  );

test('a member whose type changed is reported once, what was inside it not again', () => {
  fc.assert(
    fc.property(
      withRetypedMember.chain((c) => fc.tuple(fc.constant(c), valueOf(c.before), valueOf(c.after))),
      ([{ path, from, to }, before, after]) => {
        assert.deepEqual(shapeDifferences(json(before), json(after)), [`type changed: ${path} ${from} → ${to}`]);
      },
    ),
  );
});

test('in a stream, a field added to one type of event is reported once, keyed by that event', () => {
  fc.assert(
    fc.property(streamOf, fc.boolean(), fc.nat(), ([a], named, pick) => {
      const kind = a[pick % a.length];
      const changed = a.map((e) => (e === kind ? { ...e, values: e.values.map((v) => ({ ...(v as object), [ADDED_KEY]: 1 })) } : e));
      const shape = (events: typeof a) =>
        answerShape({ status: 200, contentType: 'text/event-stream', body: sse(events, named), stream: true });
      assert.deepEqual(shapeDifferences(shape(a), shape(changed)), [`field added: ${kind.type} $.${ADDED_KEY} (number)`]);
    }),
  );
});

test('an array empty on one side is no drift of its elements; a member inside a new array is not reported apart from it', () => {
  assert.deepEqual(shapeDifferences(json({ calls: [{ id: 'a', n: 1 }] }), json({ calls: [] })), []);
  assert.deepEqual(shapeDifferences(json({ calls: [] }), json({ calls: [{ id: 'a' }] })), []);
  assert.deepEqual(shapeDifferences(json({}), json({ calls: [{ id: 'a' }] })), ['field added: $.calls (array)']);
  assert.deepEqual(shapeDifferences(json({ n: [1] }), json({ n: [1, 'x'] })), ['type changed: $.n[] number → number | string']);
});

const WIRE: WireContext = {
  operation: 'openai.chat.completions',
  params: {},
  query: new URLSearchParams(),
  headers: { 'anthropic-version': '2023-06-01' },
  state: { sessionId: 's', store: <T>(_name: string, create: () => T) => create() },
};
const CTX: DialectEncodeContext = { wire: WIRE, responseId: 'chatcmpl-abc', created: 1_700_000_000, model: 'm', requestId: 'req_1' };

function decoded(dialect: typeof openaiChat, body: object): ChatRequest {
  const request = dialect.decode(body, WIRE);
  assert.ok(!isNeutralError(request), JSON.stringify(request));
  return request;
}

test("a dialect's own answers: another text or id is no drift; a tool call, a finish reason, a field are", () => {
  const tools = [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }];
  const request = decoded(openaiChat, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], tools });
  const chat = (reply: Reply, id = 'chatcmpl-abc') => {
    const body = openaiChat.encodeResponse(resolveReply(reply, request, { nextId: () => 'call_x' }), request, { ...CTX, responseId: id });
    const read = readChatAnswer(JSON.parse(body));
    assert.ok(typeof read !== 'string');
    return { body, shape: answerShape({ status: 200, contentType: 'application/json', body, stream: false }, read) };
  };
  const hello = chat({ text: 'Hello' });
  assert.deepEqual(shapeDifferences(hello.shape, chat({ text: 'Something else entirely' }, 'chatcmpl-zzz').shape), []);
  assert.ok(hello.shape.fields.includes('$.choices[].message.content string'), hello.shape.fields.join('\n'));
  assert.equal(hello.shape.finishReason, 'stop');
  assert.equal(hello.shape.events, undefined);

  const called = chat({ toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] });
  assert.deepEqual(called.shape.tools, ['weather']);
  const lines = shapeDifferences(hello.shape, called.shape);
  assert.ok(lines.includes('finish reason: stop → tool_calls'), lines.join('\n'));
  assert.ok(lines.includes('tools called: none → weather'), lines.join('\n'));
  assert.deepEqual(
    shapeDifferences(hello.shape, called.shape, { reading: false }).filter((l) => /finish|tools/.test(l)),
    [],
  );

  const refusal = JSON.parse(hello.body) as { choices: { message: Record<string, unknown> }[]; usage: Record<string, unknown> };
  refusal.choices[0].message.refusal_note = null;
  refusal.usage.total_tokens = '7';
  const now = answerShape(
    { status: 200, contentType: 'application/json', body: JSON.stringify(refusal), stream: false },
    readChatAnswer(refusal) as never,
  );
  assert.deepEqual(shapeDifferences(hello.shape, now), [
    'field added: $.choices[].message.refusal_note (null)',
    'type changed: $.usage.total_tokens number → string',
  ]);

  assert.deepEqual(shapeDifferences({ ...hello.shape, status: 200 }, { ...now, status: 400 }), ['status: 200 → 400']);
  const streamed = { ...hello.shape, contentType: 'text/event-stream', events: ['data'] };
  assert.deepEqual(shapeDifferences(hello.shape, streamed), ['content type: application/json → text/event-stream']);
});

test("an Anthropic stream's event types, in order, repeats collapsed; a block more is an event-type difference", () => {
  const request = decoded(anthropicMessages, {
    model: 'claude-sonnet-4-5',
    max_tokens: 100,
    messages: [{ role: 'user', content: 'hi' }],
    tools: [{ name: 'weather', input_schema: { type: 'object' } }],
    stream: true,
  });
  const stream = (reply: Reply) => {
    const events = anthropicMessages.encodeStream(resolveReply(reply, request, { nextId: () => 'toolu_x' }), request, {
      ...CTX,
      wire: { ...WIRE, operation: 'anthropic.messages' },
    }).events;
    let body = '';
    for (let i = 0; i < events.length; i++) body += events.at(i);
    const read = readMessageStream(body);
    assert.ok(typeof read !== 'string');
    return answerShape({ status: 200, contentType: 'text/event-stream', body, stream: true }, read);
  };
  const short = stream({ text: 'Hi', chunks: ['H', 'i'] });
  assert.deepEqual(short.events, [
    'message_start',
    'content_block_start',
    'ping',
    'content_block_delta',
    'content_block_stop',
    'message_delta',
    'message_stop',
  ]);
  assert.deepEqual(shapeDifferences(short, stream({ text: 'A longer answer', chunks: ['A ', 'longer ', 'answer'] })), []);
  const withTool = stream({ text: 'Let me look.', toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] });
  const lines = shapeDifferences(short, withTool);
  assert.ok(
    lines.some((l) => l.startsWith('event types: ')),
    lines.join('\n'),
  );
  assert.ok(lines.includes('tools called: none → weather'), lines.join('\n'));
  assert.ok(lines.includes('finish reason: stop → tool_calls'), lines.join('\n'));
});

test('an InvokeModel chunk is keyed by the model event its bytes carry; a frame with a bad checksum ends the reading', () => {
  const chunk = (event: object) => eventFrame('chunk', JSON.stringify({ bytes: Buffer.from(JSON.stringify(event)).toString('base64') }));
  const body = chunk({ type: 'message_start', message: { id: 'x' } }) + chunk({ type: 'content_block_delta', delta: { text: 'a' } });
  const shape = answerShape({ status: 200, contentType: 'application/vnd.amazon.eventstream', body, stream: true });
  assert.deepEqual(shape.events, ['chunk:message_start', 'chunk:content_block_delta']);
  assert.ok(shape.fields.includes('chunk:content_block_delta $.delta.text string'), shape.fields.join('\n'));
  const broken = body.slice(0, -1) + String.fromCharCode(body.charCodeAt(body.length - 1) ^ 1);
  assert.deepEqual(answerShape({ status: 200, contentType: 'application/vnd.amazon.eventstream', body: broken, stream: true }).events, [
    'chunk:message_start',
    'malformed-frame',
  ]);
});

test('SSE markers and plain data: [DONE] is an event type of its own; a non-JSON body is text', () => {
  const shape = answerShape({
    status: 200,
    contentType: 'text/event-stream',
    body: 'data: {"a":1}\n\ndata: {"a":2}\n\n: ping\n\ndata: [DONE]\n\n',
    stream: true,
  });
  assert.deepEqual(shape.events, ['data', '[DONE]']);
  assert.deepEqual(shape.fields, ['[DONE] $ text', 'data $ object', 'data $.a number']);
  assert.deepEqual(answerShape({ status: 502, contentType: 'text/html', body: '<html>', stream: false }).fields, ['$ text']);
});
