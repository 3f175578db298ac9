// A recorder hands a reader whatever the upstream answered: whatever that is, every chat dialect's
// reader gives an answer or a string saying why not, and never throws — for any JSON body and any
// text (fast-check), and for each dialect's real answers, JSON and streamed, with any of their
// parts replaced by any JSON value or removed, and events dropped (test/support/answer-samples.ts).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { answerSamples, framed, type StreamEvent } from './support/answer-samples.js';

const SAMPLES = answerSamples();

type Path = (string | number)[];

/** Every path into a JSON value, the value itself first. */
function pathsOf(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...at, i], out));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) pathsOf(v, [...at, k], out);
  return out;
}

/** A copy of `value` with the thing at `path` replaced (or removed, when `by` is undefined). */
function changed(value: unknown, path: Path, by: unknown): unknown {
  if (path.length === 0) return by;
  const [head, ...rest] = path as [string | number, ...Path];
  if (Array.isArray(value)) {
    const copy = [...value];
    if (rest.length === 0 && by === undefined) copy.splice(head as number, 1);
    else copy[head as number] = changed(copy[head as number], rest, by);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  if (rest.length === 0 && by === undefined) delete copy[head as string];
  else copy[head as string] = changed(copy[head as string], rest, by);
  return copy;
}

/** Changes to make: each a position among the value's paths (taken modulo their count) and what
 * goes there (undefined: remove it). */
const changes = fc.array(fc.tuple(fc.nat(), fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined })), { minLength: 1, maxLength: 3 });

function mutate(value: unknown, edits: [number, unknown][]): unknown {
  let out = value;
  for (const [at, by] of edits) {
    const paths = pathsOf(out);
    out = changed(out, paths[at % paths.length] as Path, by);
  }
  return out;
}

function noThrow(name: string, read: () => unknown): void {
  let result: unknown;
  try {
    result = read();
  } catch (error) {
    assert.fail(`${name}'s reader threw: ${String(error)}`);
  }
  assert.ok(typeof result === 'string' || (typeof result === 'object' && result !== null), name);
}

test('each sample answer, as its encoders made it, reads as an answer (JSON and stream)', () => {
  for (const sample of SAMPLES) {
    const json = sample.reader.json(sample.json);
    const stream = sample.reader.stream(framed(sample.events, sample.framing));
    assert.ok(typeof json !== 'string', `${sample.name}: ${String(json)}`);
    assert.ok(typeof stream !== 'string', `${sample.name}: ${String(stream)}`);
    // Cohere v1's one text beside tool calls reads as their plan.
    assert.equal(sample.name === 'cohere-v1' ? json.reasoning : json.content, 'Sunny, 21 °C.', sample.name);
    assert.equal(stream.content, 'Sunny, 21 °C.', sample.name);
  }
});

test('every reader takes any JSON body and any text without throwing', () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.oneof(fc.string(), fc.string({ unit: 'binary' })), (body, text) => {
      for (const sample of SAMPLES) {
        noThrow(sample.name, () => sample.reader.json(body));
        noThrow(sample.name, () => sample.reader.stream(text));
      }
    }),
  );
});

test("every reader takes its dialect's answers with any part changed or removed without throwing", () => {
  fc.assert(
    fc.property(fc.constantFrom(...SAMPLES), changes, changes, (sample, jsonEdits, streamEdits) => {
      noThrow(sample.name, () => sample.reader.json(mutate(sample.json, jsonEdits)));
      // The stream's event data as one array: a change may reach into an event or drop one.
      const data = mutate(
        sample.events.map((e) => e.data),
        streamEdits,
      );
      const events: StreamEvent[] = (Array.isArray(data) ? data : [data]).map((d, i) => ({ type: sample.events[i]?.type, data: d }));
      noThrow(sample.name, () => sample.reader.stream(framed(events, sample.framing)));
    }),
    { numRuns: 2000 },
  );
});
