// Understudy's Gemini API dialect against the Gemini API's own published description: the
// google.ai.generativelanguage.v1beta protos (googleapis/googleapis; Google's Discovery document
// for the API is generated from them), derived by scripts/derive-gemini-facts.mjs into JSON Schema
// of the wire as proto3's JSON mapping writes it (test/fixtures/google/). The real @google/genai
// SDK drives generateContent and generateContentStream, zero-config and scripted; every body and
// every stream chunk Understudy sent must validate against GenerateContentResponse: no member
// the protos do not have, every enum by one of its names, at most one member of a oneof. Then
// requests the protos forbid (made from the facts, as for OpenAI) must be refused with Google's
// 400. Vertex AI's routes answer in aiplatform's own messages (`createTime`, `trafficType`),
// which these protos do not describe: they are not judged here.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GoogleGenAI, Type } from '@google/genai';
import { startUnderstudy, type Understudy, type UnderstudySession } from '../src/client/index.js';
import type { Reply } from '../src/core/model.js';
import { forbiddenRequests, type ForbiddenCase } from './support/forbidden-requests.js';
import { describeErrors, GEMINI_FACTS_FILE, loadFacts, descriptionValidators } from './support/description-facts.js';
import { recordedEvents, recordingFetch, type RecordedResponse } from './support/recording-fetch.js';

const V = descriptionValidators(loadFacts(GEMINI_FACTS_FILE));
const ROOT = V.facts.roots;
const MODEL = 'gemini-2.5-flash';

function conforms(schema: string, value: unknown, where: string): void {
  const validate = V.schema(schema);
  if (validate(value)) return;
  assert.fail(
    `${where}: does not match the protos' ${schema}:\n${describeErrors(validate.errors)}\n${JSON.stringify(value).slice(0, 600)}`,
  );
}

/** Every 200 body in `recorded`: a JSON answer or an SSE stream of GenerateContentResponse chunks. */
function judge(recorded: RecordedResponse[]): { bodies: number; chunks: number; requests: number } {
  let bodies = 0;
  let chunks = 0;
  let requests = 0;
  for (const r of recorded) {
    const where = `${r.url} ${r.status}`;
    assert.equal(r.status, 200, `${where}: ${r.body.slice(0, 300)}`);
    // What the SDK sent must be a body the protos take, but for the rules a request is not held
    // to (NOT_JUDGED: the SDK sends members newer than the protos).
    if (r.requestBody !== undefined) {
      const request = V.schema(ROOT['gemini.request']);
      if (!request(JSON.parse(r.requestBody))) {
        const broken = (request.errors ?? []).filter((e) => !Object.hasOwn(NOT_JUDGED, e.keyword) && e.keyword !== 'anyOf');
        assert.deepEqual(
          broken,
          [],
          `${where}: the SDK's request is not one the protos take:\n${describeErrors(broken)}\n${r.requestBody.slice(0, 400)}`,
        );
      }
      requests++;
    }
    if (r.contentType.startsWith('text/event-stream')) {
      for (const [i, e] of recordedEvents(r).entries()) {
        conforms(ROOT['gemini.response'], JSON.parse(e.data), `${where} chunk ${i}`);
        chunks++;
      }
    } else {
      conforms(ROOT['gemini.response'], JSON.parse(r.body), where);
      bodies++;
    }
  }
  return { bodies, chunks, requests };
}

let mock: Understudy;

before(async () => {
  mock = await startUnderstudy();
});

after(async () => {
  await mock.close();
});

/** Runs `calls` with the global fetch (which @google/genai calls) recording, and judges what came back. */
async function recorded(calls: () => Promise<void>): Promise<ReturnType<typeof judge>> {
  const original = globalThis.fetch;
  const recording = recordingFetch(original);
  globalThis.fetch = recording.fetch;
  try {
    await calls();
  } finally {
    globalThis.fetch = original;
  }
  return judge(await recording.responses());
}

async function open(name: string): Promise<{ session: UnderstudySession; ai: GoogleGenAI }> {
  const session = await mock.session(`gemini-proto-${name}`, { fallback: 'auto' });
  const ai = new GoogleGenAI({ apiKey: session.apiKey, httpOptions: { baseUrl: mock.url('gemini'), timeout: 10_000 } });
  return { session, ai };
}

const WEATHER = {
  name: 'weather',
  description: 'The weather in a city',
  parameters: {
    type: Type.OBJECT,
    properties: { city: { type: Type.STRING }, unit: { type: Type.STRING, enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
  },
};
const ANSWER = {
  type: Type.OBJECT,
  properties: { answer: { type: Type.STRING }, confidence: { type: Type.NUMBER } },
  required: ['answer', 'confidence'],
};

async function both(ai: GoogleGenAI, params: Parameters<GoogleGenAI['models']['generateContent']>[0]): Promise<void> {
  await ai.models.generateContent(params);
  for await (const _ of await ai.models.generateContentStream(params));
}

describe('Gemini answers match the protos', () => {
  test('zero-config: text, a function call, structured output; JSON and streamed', async () => {
    const { ai } = await open('zero-config');
    const seen = await recorded(async () => {
      await both(ai, { model: MODEL, contents: 'What is the weather in Paris?' });
      await both(ai, { model: MODEL, contents: 'What is the weather in Paris?', config: { tools: [{ functionDeclarations: [WEATHER] }] } });
      await both(ai, { model: MODEL, contents: 'Answer.', config: { responseMimeType: 'application/json', responseSchema: ANSWER } });
    });
    assert.equal(seen.bodies, 3);
    assert.equal(seen.requests, 6, "the SDK's requests were judged too");
    assert.ok(seen.chunks >= 3);
  });

  test('scripted: text in chunks, parallel calls, structured output, thoughts, a length stop', async () => {
    const { session, ai } = await open('scripted');
    const replies: { reply: Reply; config?: Record<string, unknown> }[] = [
      { reply: { text: 'Paris is sunny.', chunks: ['Paris ', 'is ', 'sunny.'] } },
      {
        reply: {
          toolCalls: [
            { id: 'call_paris', name: 'weather', arguments: { city: 'Paris', unit: 'celsius' } },
            { name: 'weather', arguments: { city: 'Rome', unit: 'celsius' } },
          ],
        },
        config: { tools: [{ functionDeclarations: [WEATHER] }] },
      },
      { reply: { json: { answer: 'Paris', confidence: 0.9 } }, config: { responseMimeType: 'application/json', responseSchema: ANSWER } },
      { reply: { text: 'Forty-two.', reasoning: 'The user wants the answer.', reasoningTokens: 12 } },
      { reply: { text: 'The answer is', finishReason: 'length' } },
    ];
    const seen = await recorded(async () => {
      for (const [i, { reply, config }] of replies.entries()) {
        await session.load({ name: `gemini ${i}`, replies: [reply, reply] }, { replace: true });
        await both(ai, { model: MODEL, contents: 'Hi', ...(config && { config }) });
      }
    });
    assert.equal(seen.bodies, replies.length);
  });
});

// ------------------------------------------------------------------ requests

const GEMINI_BASE = {
  contents: [{ role: 'user', parts: [{ text: 'Answer in json' }] }],
  tools: [{ functionDeclarations: [{ name: 'x', description: 'x' }] }],
};

async function send(session: UnderstudySession, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${mock.url('gemini')}/v1beta/models/${MODEL}:generateContent`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': session.apiKey },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** The path as Google's messages print it: snake_case members (`generation_config.top_k`). */
const printed = (path: string) => path.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const show = (c: ForbiddenCase) => `${c.path} = ${JSON.stringify(c.value)?.slice(0, 60)} (${c.rule})`;

/**
 * Rules of the protos a request is not held to, because the live API is not known to keep them;
 * a case that breaks only these is not sent. Each must still be met by some case (none is stale).
 */
const NOT_JUDGED: Record<string, string> = {
  additionalProperties:
    'The live API adds members to its messages before the published protos show them (the pinned @google/genai ' +
    'already types ImageConfig.imageSize, VoiceConfig.voice and ExecutableCode.id, which the protos lack): a member ' +
    'the protos do not list is no proof that the API refuses it.',
  required:
    'REQUIRED is a field-behaviour annotation; which of them the live API enforces inside a request is not known ' +
    '(it refuses a request without contents, as Understudy does).',
};

describe("requests the protos forbid are refused with Google's 400", () => {
  test('generateContent: every forbidden value the facts yield is INVALID_ARGUMENT naming the field', async (t) => {
    const session = await mock.session('gemini-proto-forbidden', { fallback: 'auto' });
    const cases = forbiddenRequests(V.facts, ROOT['gemini.request'], V.schema(ROOT['gemini.request'])).cases(GEMINI_BASE);
    const baseStatus = new Map<string, number>();
    const accepted: string[] = [];
    const misnamed: string[] = [];
    let judged = 0;
    const skipped = new Map<string, number>();
    const sentUnder = new Map<string, number>();
    for (const c of cases) {
      const rules = c.rule.split('+');
      if (rules.every((r) => Object.hasOwn(NOT_JUDGED, r))) {
        for (const r of rules) skipped.set(r, (skipped.get(r) ?? 0) + 1);
        continue;
      }
      const key = JSON.stringify(c.base);
      if (!baseStatus.has(key)) baseStatus.set(key, (await send(session, c.base)).status);
      // Under a base Understudy refuses, a case can only be that refusal again: a few are sent.
      const sent = sentUnder.get(key) ?? 0;
      if (baseStatus.get(key) !== 200 && sent >= 3) continue;
      sentUnder.set(key, sent + 1);
      const answer = await send(session, c.body);
      if (answer.status === 200) {
        accepted.push(show(c));
        continue;
      }
      assert.equal(answer.status, 400, `${show(c)}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.error.status, 'INVALID_ARGUMENT', show(c));
      assert.equal(answer.body.error.code, 400, show(c));
      if (baseStatus.get(key) !== 200) continue;
      judged++;
      // Google's messages name the field by its printed path, or the member holding it; a second
      // member of a oneof ("Oneof field 'data' is already set. Cannot set 'inlineData'") and
      // Understudy's refusals of what it does not run (built-in tools, cachedContent) name the member.
      const message = String(answer.body.error.message);
      const path = printed(c.path);
      const parent = path.replace(/(\.[a-z_]+|\[\d+\])$/, '');
      const member = /([A-Za-z]+)(\[\d+\])?$/.exec(c.path)?.[1] ?? '';
      const named =
        message.includes(path) ||
        (parent !== '' && message.includes(`'${parent}'`)) ||
        message.includes(`"${member}"`) ||
        message.includes(`'${member}'`);
      if (!named && !message.includes(` ${member}`)) misnamed.push(`${show(c)} → ${message}`);
    }
    assert.deepEqual(accepted, [], `forbidden by the protos, answered 200:\n${accepted.join('\n')}`);
    assert.deepEqual(misnamed, [], `refused without naming the field:\n${misnamed.join('\n')}`);
    for (const rule of Object.keys(NOT_JUDGED)) assert.ok(skipped.has(rule), `the '${rule}' exception was not needed by any case`);
    t.diagnostic(
      `${cases.length} forbidden requests; ${judged} judged by their message; not judged: ${JSON.stringify(Object.fromEntries(skipped))}`,
    );
    assert.ok(judged >= 300, `the facts still yield a few hundred judged cases (${judged})`);
  });
});
