// The parts of the fixture format a recording needs (decision 0017): the token counts a reply
// reports, and the `recorded` member of a step, which says what was sent upstream and what shape
// came back. The engine never reads `recorded` (a step answers the same with it or without);
// `understudy drift` does. Split from fixture-schema.ts, the one description of the format.

import type * as Z from 'zod';
import { fixtureKit, rule } from './fixture-kit.js';
import { recordedHeadersRule, usageRule } from './fixture-rules-recording.js';
import { found } from './fixture-words.js';

export function describeRecordingParts(z: typeof Z) {
  const { text, name, integer, json, object } = fixtureKit(z);
  const described = <T extends Z.ZodType>(schema: T, description: string): T => schema.meta({ description });
  const count = (description: string) =>
    described(integer('a token count (an integer ≥ 0)', 0, Number.MAX_SAFE_INTEGER), description).optional();

  const usage = rule(
    object(
      'reported token counts',
      {
        inputTokens: count('The whole prompt, its cached and cache-written parts included. Counted from the request when omitted.'),
        outputTokens: count(
          "The answer's own tokens, reasoning not included (a wire that counts reasoning as output, such as OpenAI's completion_tokens or Anthropic's output_tokens, reports outputTokens + reasoningTokens). Counted from the reply when omitted.",
        ),
        cachedInputTokens: count(
          "The part of the prompt read from the prompt cache. Needs inputTokens; with it or cacheWriteTokens the script gives both cache counts (the other one 0) and the session's prompt cache does not change them.",
        ),
        reasoningTokens: count('Reasoning tokens, reported beside the output. Not together with the reply\'s own "reasoningTokens".'),
        cacheWriteTokens: count(
          'The part of the prompt written to the prompt cache (reported where the provider reports it, e.g. Anthropic). Needs inputTokens; cachedInputTokens + cacheWriteTokens ≤ inputTokens.',
        ),
      },
      {
        id: 'usage',
        description:
          "Token counts the answer reports instead of the counted ones (a recording keeps the real provider's). Fields left out are counted as without `usage`.",
        dependencies: { cachedInputTokens: ['inputTokens'], cacheWriteTokens: ['inputTokens'] },
      },
    ),
    usageRule,
  );

  const header = z
    .string({ error: (i) => `expected a header value (a string); found ${found(i.input)}` })
    .meta({ description: "The header's value as sent." });
  const strings = (what: string, description: string) =>
    described(z.array(text(`${what} (a string)`), { error: (i) => `expected a list of ${what}s; found ${found(i.input)}` }), description);

  const shape = object(
    'an answer shape',
    {
      contentType: described(text('a content type (a string)'), "The answer's Content-Type, as the upstream sent it."),
      fields: strings(
        'a field',
        "The answer's JSON paths with their types (\"path type\"), sorted; for a stream, those of each event's data keyed by the event's type; lists as [].",
      ),
      events: strings('an event type', "A stream's event types in order, consecutive repeats collapsed.").optional(),
      finishReason: described(
        z.union([z.string(), z.null()], { error: (i) => `expected a finish reason (a string) or null; found ${found(i.input)}` }),
        "The upstream's finish reason as it wrote it, or null when it gave none.",
      ),
      tools: strings('a tool name', 'The names of the tools the answer called, in order.'),
    },
    {
      id: 'answerShape',
      description: "The shape of the upstream's answer, which `understudy drift` compares a fresh answer with (not its values).",
    },
  );

  const recorded = object(
    'a recorded exchange',
    {
      provider: described(name('a provider name'), 'The --upstream name the request went to (the first segment of the operation id).'),
      operation: described(name('an operation id'), 'The operation the request was, e.g. openai.chat.completions.'),
      method: described(name('an HTTP method'), 'The HTTP method sent upstream.'),
      path: described(
        text('a request path (a string)'),
        'The path sent, relative to the upstream base URL, its query included (e.g. /chat/completions).',
      ),
      headers: rule(
        described(
          z.record(z.string(), header, {
            error: (i) => `expected request headers (an object of name: string value); found ${found(i.input)}`,
          }),
          'The request headers kept (never credentials): lower-case names, string values.',
        ).meta({ propertyNames: { pattern: "^[!#$%&'*+.^_`|~0-9a-z-]+$" } }),
        recordedHeadersRule,
      ).optional(),
      body: described(json(), 'The request body as JSON, after redaction.').optional(),
      stream: described(
        z.boolean({ error: (i) => `expected true or false; found ${found(i.input)}` }),
        'Whether the request asked for a stream.',
      ).optional(),
      status: described(integer('an HTTP status (an integer from 100 to 599)', 100, 599), "The upstream's HTTP status.").optional(),
      shape: described(shape.optional(), "The shape of the upstream's answer (docs/record-replay.md)."),
    },
    {
      id: 'recorded',
      description:
        'What a recording sent upstream and the shape of what came back (docs/record-replay.md). Written by `serve --record`, read by `understudy drift`; replay ignores it.',
    },
  );

  return { usage, recorded, answerShape: shape };
}
