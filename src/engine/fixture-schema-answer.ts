// The parts of the fixture format that say how an answer goes out rather than what it says: its
// pacing, a fault part-way through it, and a scripted HTTP error with its headers. Split from
// fixture-schema.ts, the one description of the format, which composes them into a reply.

import type * as Z from 'zod';
import { fixtureKit, rule } from './fixture-kit.js';
import { faultRule, HEADER_NAME, headerNamesRule } from './fixture-rules.js';
import { found } from './fixture-words.js';

const FAULT_KINDS = ['error', 'truncate', 'malformed', 'stall', 'reset', 'close'] as const;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export function describeAnswerParts(z: typeof Z) {
  const { text, oneOf, integer, nonNegative, json, object } = fixtureKit(z);
  const described = <T extends Z.ZodType>(schema: T, description: string): T => schema.meta({ description });

  const pacing = object(
    'pacing',
    {
      ttftMs: described(
        nonNegative('a time to first token in milliseconds (a number ≥ 0)'),
        'Milliseconds before the first event is written (headers go out at once).',
      ).optional(),
      chunksPerSecond: described(
        z.number({ error: (i) => `expected events per second (a number > 0); found ${found(i.input)}` }).gt(0, {
          error: (i) => `expected events per second (a number > 0); found ${found(i.input)}`,
        }),
        'Events per second after the first.',
      ).optional(),
      jitterMs: described(
        nonNegative('a jitter in milliseconds (a number ≥ 0)'),
        'Each gap varies by up to ± this many milliseconds, from a generator seeded by the session: the same run gives the same timings.',
      ).optional(),
    },
    { id: 'pacing', description: 'How a streamed answer is paced (zero delay unless set).' },
  );
  const pacingOf = (description: string) => described(pacing.optional(), description);

  const faultError = object(
    'the error the event carries',
    {
      status: described(
        integer('an HTTP status (an integer from 400 to 599)', 400, 599),
        'HTTP-style status of the error (default 500).',
      ).optional(),
      message: described(text('a message (a string)'), 'Error message.').optional(),
      code: described(text('a code (a string)'), 'Provider error code.').optional(),
      type: described(text('a type (a string)'), 'Provider error type.').optional(),
    },
    { description: 'For kind error: the error the event carries.' },
  );

  const fault = rule(
    object(
      'a fault',
      {
        kind: described(
          oneOf(FAULT_KINDS),
          "error: the provider's in-stream error event; truncate: end without the terminal event; malformed: a broken event; stall: nothing more until the client gives up; reset: TCP reset; close: close the connection mid-answer.",
        ),
        afterChunks: described(
          integer('a count (an integer ≥ 0)', 0, Number.MAX_SAFE_INTEGER),
          'Events written before the fault (default 1).',
        ).optional(),
        afterBytes: described(
          integer('a count (an integer ≥ 0)', 0, Number.MAX_SAFE_INTEGER),
          'Or: bytes of the body written before the fault (JSON answers and streams).',
        ).optional(),
        error: faultError.optional(),
      },
      {
        id: 'fault',
        description: 'A failure part-way through the answer, after some of it was written.',
        not: { required: ['afterChunks', 'afterBytes'] },
      },
    ),
    faultRule,
  );

  const headers = rule(
    described(
      z.record(
        z.string(),
        described(
          z
            .string({ error: (i) => `expected a header value (a string); found ${found(i.input)}` })
            .regex(HEADER_VALUE, { error: () => 'expected a header value without line breaks or control characters; found one' }),
          "The header's value.",
        ),
        { error: (i) => `expected response headers (an object of name: string value); found ${found(i.input)}` },
      ),
      'Extra response headers, e.g. retry-after.',
    ).meta({ propertyNames: { pattern: HEADER_NAME.source } }),
    headerNamesRule,
  );

  const error = object(
    'an error',
    {
      status: described(
        integer('an HTTP status (an integer from 400 to 599)', 400, 599),
        'The HTTP status, 400 to 599 (e.g. 429 for a rate limit).',
      ),
      message: described(text('an error message (a string)'), "The error message in the provider's error body."),
      code: described(
        text('an error code (a string)'),
        'The provider error code, when the dialect has one (e.g. rate_limit_exceeded).',
      ).optional(),
      type: described(
        text('an error type (a string)'),
        'The provider error type, when the dialect has one (e.g. invalid_request_error).',
      ).optional(),
      headers: headers.optional(),
      inStream: described(
        z.boolean({ error: (i) => `expected true or false; found ${found(i.input)}` }),
        "On a streaming request, answer 200 and fail inside the stream with the provider's in-stream error event instead of an HTTP error status.",
      ).optional(),
      extra: described(
        z.record(z.string(), json(), {
          error: (i) => `expected extra error members (an object of name: JSON value); found ${found(i.input)}`,
        }),
        "Members added to the provider's error object beside its message, type and code, e.g. Groq's failed_generation; members of those names are ignored.",
      ).optional(),
    },
    { id: 'error', description: 'Answer with an HTTP error instead of a completion. Only `delayMs` may be set beside it.' },
  );

  return { pacing, pacingOf, fault, headers, error };
}
