// The fixture format's `videos` list and the session's video capacity: how a video job made for a
// chosen prompt runs (how long it waits and runs, how it ends, the bytes it answers), or the error
// its create gets. Composed into the format by fixture-schema.ts (docs/videos.md).

import type * as Z from 'zod';
import { fixtureKit, rule } from './fixture-kit.js';
import { scriptedVideoRule } from './fixture-rules-videos.js';
import { found } from './fixture-words.js';

const OUTCOMES = ['completed', 'failed'] as const;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function describeVideoParts<M extends Z.ZodType, E extends Z.ZodType, F extends Z.ZodType>(
  z: typeof Z,
  parts: { textMatchOrString: M; error: E; fault: F },
) {
  const { text, oneOf, integer, nonNegative, object } = fixtureKit(z);
  const described = <T extends Z.ZodType>(schema: T, description: string): T => schema.meta({ description });
  const seconds = (what: string) => integer(`${what} (an integer number of seconds ≥ 0)`, 0, 365 * 24 * 3600);
  const bytes = (what: string) =>
    described(
      z
        .string({ error: (i) => `expected ${what} as base64 (a string); found ${found(i.input)}` })
        .regex(BASE64, { error: () => `expected ${what} as base64 (letters, digits, +, / and = padding); found other characters` }),
      `The ${what}, base64-encoded.`,
    ).optional();

  const scriptedVideo = rule(
    object(
      'a scripted video',
      {
        prompt: described(parts.textMatchOrString, 'The prompt this entry answers: an exact string, or a text match.'),
        model: described(text('a model name (a string)'), 'Only for jobs asking for this model.').optional(),
        queuedSeconds: described(seconds('a wait'), 'Seconds the job stays queued after it is created (default 1).').optional(),
        runSeconds: described(
          seconds('a run time'),
          'Seconds it then runs (in progress, its percent rising with the session clock) before it ends (default 9).',
        ).optional(),
        outcome: described(oneOf(OUTCOMES), 'How the run ends (default completed).').optional(),
        failure: described(
          object(
            'a failure',
            {
              code: described(text('a code (a string)'), 'The failure code (default video_generation_failed).').optional(),
              message: described(text('a message (a string)'), 'What failed.'),
            },
            { description: 'For outcome failed: the job error the job reports.' },
          ),
          'For outcome failed: the job error the job reports.',
        ).optional(),
        content: described(
          object(
            'scripted content',
            { video: bytes('video bytes'), thumbnail: bytes('thumbnail bytes'), spritesheet: bytes('spritesheet bytes') },
            { description: 'The bytes each variant answers; a variant left out gets the default file.' },
          ),
          "The bytes the job's content answers; they count against the session's video capacity.",
        ).optional(),
        download: described(
          object(
            'a download script',
            {
              error: described(parts.error, "The provider error every download of the job's content gets instead of the bytes.").optional(),
              delayMs: described(
                nonNegative('a delay in milliseconds (a number ≥ 0)'),
                'Milliseconds before each download is answered.',
              ).optional(),
              fault: described(parts.fault, 'A failure part-way through each download (e.g. reset after some bytes).').optional(),
            },
            {
              description:
                "How the job's content downloads are answered (OpenAI's content, Azure's generation content, Gemini's file download).",
            },
          ),
          "How the job's content downloads are answered: a scripted error, a delay, a fault part-way.",
        ).optional(),
        error: described(
          parts.error,
          "Instead of a job: the provider error the create gets (in the route's error shape); only delayMs may be set beside it.",
        ).optional(),
        delayMs: described(
          nonNegative('a delay in milliseconds (a number ≥ 0)'),
          'Milliseconds before the create is answered; a client that leaves first stores nothing.',
        ).optional(),
        fault: described(parts.fault, "A failure part-way through the create's answer: the job is not stored.").optional(),
      },
      {
        id: 'scriptedVideo',
        description: 'How a video job made for a matching prompt runs, or the error its create gets.',
        if: { required: ['error'] },
        then: { propertyNames: { enum: ['prompt', 'model', 'error', 'delayMs'] } },
      },
    ),
    scriptedVideoRule,
  );

  const videoCapacity = object(
    'a video capacity',
    {
      maxJobs: described(
        integer('a number of jobs (an integer ≥ 0)', 0, Number.MAX_SAFE_INTEGER),
        'Video jobs kept at once (default 256); 0 disables storage, so every create is refused.',
      ).optional(),
      maxBytes: described(
        integer('a number of bytes (an integer ≥ 0)', 0, Number.MAX_SAFE_INTEGER),
        "Payload bytes kept at once over all jobs (default 64 MiB): each job's input reference and scripted content.",
      ).optional(),
    },
    {
      id: 'videoCapacity',
      description:
        "The session's budget for stored video jobs; a create past either bound is refused with 409 video_capacity_exceeded. Setting it clears the session's video jobs.",
    },
  );

  return { scriptedVideo, videoCapacity };
}
