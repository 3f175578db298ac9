// The fixture format, described once (how an answer goes out is in fixture-schema-answer.ts):
// fixture files (YAML or JSON), control-API bodies and the builder's output all have this shape.
// From this description come the TypeScript types (spec.ts), the checks with their messages
// (fixture-file.ts) and schema/fixtures.schema.json (fixture-json-schema.ts, written by
// scripts/build-fixture-schema.ts). Field descriptions are for editors; `what` texts (the first
// argument of each helper) are how problems name the field.
//
// zod is loaded here, on first use, rather than imported: the library and the CLI start without it
// when no script has to be checked.

import { createRequire } from 'node:module';
import type * as Z from 'zod';
import { describeAnswerParts } from './fixture-schema-answer.js';
import { describeImageParts, describeReplyImage } from './fixture-schema-images.js';
import { describeAudioParts } from './fixture-schema-audio.js';
import { describeVideoParts } from './fixture-schema-videos.js';
import { describeRecordingParts } from './fixture-schema-recording.js';
import { replyUsageRule } from './fixture-rules-recording.js';
import { fixtureKit, rule } from './fixture-kit.js';
import {
  jsonPathRule,
  messageRule,
  presetCallRule,
  presetResultRule,
  replyRule,
  ROLES,
  scenarioRule,
  stepIdRule,
  TEXT_MODES,
  textMatchRule,
  TOOL_CALL_ID_MAX,
  toolResultRule,
  scenariosOrEmbeddings,
  scriptedVectorRule,
  uniqueScenarioNames,
} from './fixture-rules.js';
import { found, quoteList } from './fixture-words.js';
import { PRESET_NAME_LIST, type PresetValuePart } from '../core/preset-copy.js';
import { DEFAULT_REPLY_LIMITS, sizeText } from './reply-limits.js';
import { MAX_DIMENSIONS } from '../core/embedding-vectors.js';

const EXHAUSTION = ['reject', 'repeat_last', 'restart'] as const;
const FALLBACK = ['strict', 'auto'] as const;
const STREAM_FLAVOURS = ['plain', 'azure'] as const;
const FINISH = ['stop', 'length', 'tool_calls', 'content_filter'] as const;
const JSON_PATH_IN = ['latest', 'toolResult'] as const;

/** For editors: what each preset's `arguments` (and `result`, `error`) must be, as references to
 * the catalogue copy's schemas, which fixture-json-schema.ts adds to the JSON Schema's definitions. */
function presetBranches(parts: readonly PresetValuePart[]): Record<string, unknown>[] {
  return PRESET_NAME_LIST.map((preset) => ({
    if: { properties: { preset: { const: preset } }, required: ['preset'] },
    then: { properties: Object.fromEntries(parts.map((part) => [part, { $ref: `#/definitions/${presetDefinitionName(preset, part)}` }])) },
  }));
}

/** The JSON Schema definition holding a preset's schema of `part` (the error schema is one for all). */
export function presetDefinitionName(preset: string, part: PresetValuePart): string {
  return part === 'error' ? 'preset.error' : `preset.${preset}.${part}`;
}

/** The format's schemas, built with the zod given (see fixtureFormat() for the loaded one). */
export function describeFixtureFormat(z: typeof Z) {
  const { text, name, oneOf, integer, nonNegative, list, json, object } = fixtureKit(z);
  const described = <T extends Z.ZodType>(schema: T, description: string): T => schema.meta({ description });

  const { pacing, pacingOf, fault, error } = describeAnswerParts(z);
  const { usage, recorded, answerShape } = describeRecordingParts(z);

  const toolCallId = z
    .string({ error: (i) => `expected a tool call id (a non-blank string); found ${found(i.input)}` })
    .min(1, { error: (i) => `expected a tool call id (a non-blank string); found ${found(i.input)}` })
    .regex(/\S/, { error: (i) => `expected a tool call id (a non-blank string); found ${found(i.input)}` });

  const toolCall = rule(
    object(
      'a tool call',
      {
        id: described(
          toolCallId.max(TOOL_CALL_ID_MAX, {
            error: (i) =>
              `expected a tool call id of at most ${TOOL_CALL_ID_MAX} characters; found ${(i.input as string).length} characters`,
          }),
          'The call id; assigned from the session counter when omitted. Unique within the reply.',
        ).optional(),
        name: described(name('a tool name'), 'The name of the tool to call. Not together with `preset`.').optional(),
        preset: described(
          oneOf(PRESET_NAME_LIST),
          "Instead of `name`: a preset of llm-understudy/presets (docs/presets.md), called by its function name; the arguments are checked against the preset's parameters schema when the script is loaded.",
        ).optional(),
        arguments: described(
          json(),
          "The call's arguments: an object (sent as compact JSON) or a string sent verbatim. Required with `preset`.",
        ).optional(),
      },
      {
        id: 'toolCall',
        description: 'A tool call the reply makes: to a tool by `name`, or to a preset by `preset`.',
        oneOf: [{ required: ['name'] }, { required: ['preset'] }],
        dependencies: { preset: ['arguments'] },
        allOf: presetBranches(['arguments']),
      },
    ),
    presetCallRule,
  );

  const citation = object(
    'a citation',
    {
      text: described(name('the cited words'), "The cited words: they must occur in the reply's text, after the previous citation's."),
      sources: described(
        list('a list of source ids', name('a source id'), false),
        "Ids of the cited sources, as the request named them (a document's id, a tool call's id).",
      ).optional(),
    },
    { id: 'citation', description: 'A span of the reply text that cites sources; answered by the dialects that carry citations (Cohere).' },
  );

  const replyImage = describeReplyImage(z);

  const reply = rule(
    object(
      'a reply',
      {
        text: described(
          text('the reply text (a string)'),
          `The reply's text content. Text, reasoning and tool arguments together: at most ${sizeText(DEFAULT_REPLY_LIMITS.replyBytes).split(' (')[0]} of UTF-8 unless the server's maxReplyBytes says otherwise (docs/fixtures.md, Limits).`,
        ).optional(),
        json: described(json(), 'Structured content (any JSON value), sent as compact JSON text. Not together with `text`.').optional(),
        toolCalls: described(list('a list of tool calls', toolCall, true), 'Tool calls the assistant makes, in order.').optional(),
        reasoning: described(text('reasoning text (a string)'), 'Reasoning text, for dialects and models that expose it.').optional(),
        chunks: described(
          list('a list of stream chunks (strings)', described(text('a chunk (a string)'), 'One stream chunk of the content.'), false),
          `How to split the content when streaming; the chunks must concatenate exactly to the text (or the compact JSON). At most ${DEFAULT_REPLY_LIMITS.streamChunks.toLocaleString('en-US')} of them unless the server's maxStreamChunks says otherwise (docs/fixtures.md, Limits).`,
        ).optional(),
        delayMs: described(nonNegative('a delay in milliseconds (a number ≥ 0)'), 'Milliseconds to wait before answering.').optional(),
        error: described(error.optional(), 'Answer with an HTTP error instead of a completion; only delayMs may be set beside it.'),
        finishReason: described(oneOf(FINISH), "The finish reason to report (mapped to the dialect's wording).").optional(),
        reasoningTokens: described(
          integer('an integer ≥ 0', 0),
          'Extra reasoning tokens to report in usage (for reasoning models); the same as usage.reasoningTokens.',
        ).optional(),
        usage: described(usage.optional(), 'Token counts to report instead of the counted ones; fields left out are counted.'),
        citations: described(
          list('a list of citations', citation, false),
          'Spans of the text that cite sources, in the order they occur; answered by the dialects that carry citations (Cohere).',
        ).optional(),
        pacing: pacingOf("Pacing of this streamed answer (overrides the scenario's and the session's)."),
        fault: described(fault.optional(), 'A failure part-way through this answer.'),
        hostFields: described(
          z.record(z.string(), json(), {
            error: (i) => `expected host answer members (an object of name: JSON value); found ${found(i.input)}`,
          }),
          "Members a host adds to its answer, e.g. Perplexity's citations and search_results or OpenRouter's provider (docs/dialects/openai-hosts.md); members the answer already has are not replaced, and dialects without such members leave them out.",
        ).optional(),
        images: described(
          list('a list of reply images', replyImage, false),
          'Images the answer carries beside its text: Gemini answers them as inlineData parts to a request that asks for IMAGE output; a request that does not (and every other dialect) gets 409 fixture_mismatch.',
        ).optional(),
      },
      {
        id: 'reply',
        description:
          'What to answer: text or JSON content, tool calls, images, or an error. At least one of text, json, toolCalls, images, error.',
        anyOf: [
          { required: ['text'] },
          { required: ['json'] },
          { required: ['toolCalls'] },
          { required: ['images'] },
          { required: ['error'] },
        ],
        not: {
          anyOf: [
            { required: ['text', 'json'] },
            // The reasoning tokens once: in usage or beside it.
            { required: ['reasoningTokens', 'usage'], properties: { usage: { type: 'object', required: ['reasoningTokens'] } } },
          ],
        },
        dependencies: { chunks: { anyOf: [{ required: ['text'] }, { required: ['json'] }] } },
        if: { required: ['error'] },
        then: { propertyNames: { enum: ['error', 'delayMs'] } },
      },
    ),
    replyRule,
  );
  rule(reply, replyUsageRule);

  const textMatch = rule(
    object(
      'a text match',
      {
        equals: described(text('a string'), 'The text equals this string exactly.').optional(),
        contains: described(text('a string'), 'The text contains this string.').optional(),
        matches: described(
          text('a regular expression (a string)'),
          'A JavaScript regular expression source the text must match (anywhere, unless anchored).',
        ).optional(),
        flags: described(
          text('regular expression flags (a string such as "i")'),
          'Regular expression flags for `matches`, among d, i, m, s, u, v (g and y are not allowed).',
        )
          .meta({ pattern: '^[dimsuv]*$' })
          .optional(),
      },
      {
        id: 'textMatch',
        description: 'How text must match: exactly one of equals, contains, matches.',
        oneOf: TEXT_MODES.map((mode) => ({ required: [mode] })),
        dependencies: { flags: ['matches'] },
      },
    ),
    textMatchRule,
  );

  const textMatchOrString = z
    .union([described(z.string(), 'The text equals this string exactly.'), textMatch], {
      error: (i) => `expected a string or an object with one of ${quoteList(TEXT_MODES)}; found ${found(i.input)}`,
    })
    .meta({ id: 'textMatchOrString', description: 'An exact string, or a text match object.' });
  const { scriptedVideo, videoCapacity } = describeVideoParts(z, { textMatchOrString, error, fault });

  const messageToolCall = object(
    'a tool call',
    {
      id: described(toolCallId, 'The call id (matched when given).').optional(),
      name: described(name('a tool name'), "The tool's name."),
      arguments: described(json(), "The call's arguments (any JSON value; matched structurally when given).").optional(),
    },
    { id: 'messageToolCall', description: 'A tool call made by an assistant message in the history.' },
  );

  const message = rule(
    object(
      'a message',
      {
        role: described(oneOf(ROLES), 'Who wrote the message.'),
        content: described(
          text('message content (a string)'),
          'The message text (text parts joined); for a tool message, the result content.',
        ).optional(),
        toolCalls: described(
          list('a list of tool calls', messageToolCall, false),
          'An assistant message\'s tool calls, in order. In historyExact an absent list means "no tool calls".',
        ).optional(),
        toolCallId: described(name('a tool call id'), 'For a tool message: the id of the call this result answers.').optional(),
      },
      {
        id: 'message',
        description: 'A message in the conversation history.',
        allOf: [
          { if: { required: ['toolCalls'] }, then: { properties: { role: { const: 'assistant' } } } },
          { if: { required: ['toolCallId'] }, then: { properties: { role: { const: 'tool' } } } },
        ],
      },
    ),
    messageRule,
  );

  const toolResult = rule(
    rule(
      object(
        'a tool result condition',
        {
          name: described(name('a tool name'), 'The name of the tool whose result is present. Not together with `preset`.').optional(),
          id: described(name('a tool call id'), 'The tool call id the result answers.').optional(),
          content: described(
            json(),
            'The result content: a string equal to the text, or a JSON value equal to the parsed text.',
          ).optional(),
          preset: described(
            oneOf(PRESET_NAME_LIST),
            'Instead of `name`: the result of a call to this preset of llm-understudy/presets (docs/presets.md), by its function name.',
          ).optional(),
          result: described(
            json(),
            "With `preset`: the success result the content must be, compared structurally as JSON (member order and whitespace do not matter); checked against the preset's result schema when the script is loaded.",
          ).optional(),
          error: described(
            json(),
            "With `preset`: the failure's error ({ code, message, retryable }); the content must be the envelope { error: … }, compared structurally as JSON; checked against the preset's error schema when the script is loaded.",
          ).optional(),
          arguments: described(
            json(),
            "The arguments the history's assistant call with this result's id carried, compared structurally as JSON (with `preset`: checked against its parameters schema when the script is loaded).",
          ).optional(),
        },
        {
          description:
            'A tool result after the latest user message, for this tool name (or preset) and/or call id, with this content (or preset result or error).',
          anyOf: [{ required: ['name'] }, { required: ['id'] }, { required: ['preset'] }],
          dependencies: { result: ['preset'], error: ['preset'] },
          allOf: [
            { not: { required: ['name', 'preset'] } },
            { not: { required: ['result', 'error'] } },
            { not: { required: ['content', 'result'] } },
            { not: { required: ['content', 'error'] } },
            ...presetBranches(['arguments', 'result', 'error']),
          ],
        },
      ),
      toolResultRule,
    ),
    presetResultRule,
  );

  const toolArguments = object(
    'a tool arguments condition',
    {
      name: described(name('a tool name'), 'Only calls to this tool.').optional(),
      id: described(name('a tool call id'), 'Only the call with this id.').optional(),
      equals: described(json(), 'The arguments the call must have (any JSON value).'),
    },
    { description: 'A tool call in the history whose arguments equal this JSON value (structurally).' },
  );

  const jsonPath = object(
    'a JSON path condition',
    {
      path: rule(
        described(text('a JSON path (a string starting with "$")'), "A JSON path such as $.city, $.items[0] or $['a b'].").meta({
          pattern: '^\\$',
        }),
        jsonPathRule,
      ),
      equals: described(json(), 'The value found at the path must equal this JSON value.'),
      in: described(
        oneOf(JSON_PATH_IN),
        'Where to read: "latest" (the latest message\'s text, default) or "toolResult" (the latest tool result).',
      ).optional(),
    },
    { description: "A value inside the latest message's text (or the latest tool result), parsed as JSON." },
  );

  const when = object(
    'match conditions',
    {
      model: described(textMatchOrString.optional(), 'The requested model: an exact name, or a text match such as { matches: "^gpt-4" }.'),
      latestUser: described(
        textMatchOrString.optional(),
        'The text of the latest user message: an exact string, or a text match ({ equals }, { contains } or { matches, flags }).',
      ),
      toolResult: toolResult.optional(),
      toolArguments: toolArguments.optional(),
      jsonPath: jsonPath.optional(),
      historyExact: described(
        list('a list of messages', message, true),
        'The whole history (all messages, system included) equals this list.',
      ).optional(),
      historyContains: described(
        list('a list of messages', message, true),
        'The history contains these messages in this order (not necessarily adjacent); absent fields match anything.',
      ).optional(),
      hasTool: described(
        z.union([name('a tool name'), list('a list of tool names', name('a tool name'), true)], {
          error: (i) => `expected a tool name or a non-empty list of tool names; found ${found(i.input)}`,
        }),
        'The request declares a tool with this name, or every tool of this list.',
      ).optional(),
      attempt: described(
        integer('a retry attempt (an integer ≥ 0; 0 is the first try)', 0),
        "The SDK's retry attempt, 0 for the first try (from x-stainless-retry-count or amz-sdk-request): fail the first attempt, answer the retry.",
      ).optional(),
    },
    { id: 'when', description: 'Conditions on the request; all given conditions must hold. Without `when` a step matches any request.' },
  );

  // An empty string is refused by the rule that resolves step ids, which can name the ids there are.
  const stepRef = described(
    z.string({ error: (i) => `expected a step id or "complete"; found ${found(i.input)}` }).meta({ minLength: 1 }),
    'A step id of this scenario.',
  );
  const next = z.union(
    [
      described(stepRef, 'A step id of this scenario, or "complete" to finish the scenario.'),
      described(
        z.array(stepRef).min(1, { error: () => 'expected a step id, "complete" or a non-empty list of step ids; found an empty list' }),
        'Step ids of this scenario; the first whose `when` matches the next request answers it.',
      ),
    ],
    { error: (i) => `expected a step id, "complete" or a list of step ids; found ${found(i.input)}` },
  );

  const step = object(
    'a step',
    {
      id: described(
        rule(name('a step id'), stepIdRule),
        'The step\'s id, unique within the scenario; defaults to "step-N" (its 1-based position). "complete" is reserved.',
      )
        .meta({ not: { const: 'complete' } })
        .optional(),
      when: described(when.optional(), 'Conditions the request must meet for this step to answer it; all must hold. Absent: any request.'),
      reply: described(reply, 'What this step answers.'),
      next: described(
        next,
        'What follows this step: a step id, a list of step ids (the first whose `when` matches wins), or "complete". Default: the next step in the list, or "complete" after the last.',
      ).optional(),
      recorded: described(
        recorded.optional(),
        'Written by `serve --record`: the request sent upstream and the shape of its answer, for `understudy drift`. Ignored at replay.',
      ),
    },
    { id: 'step', description: 'One step of a scenario: when its conditions hold, it answers with its reply.' },
  );

  const scenario = rule(
    object(
      'a scenario',
      {
        name: described(name('a scenario name'), "The scenario's name, unique within the file."),
        exhausted: described(
          oneOf(EXHAUSTION),
          'What happens when a request reaches the scenario after it completed: "reject" (default) refuses, "repeat_last" gives the last reply again, "restart" starts over from the first step.',
        ).optional(),
        maxReplies: described(
          integer('a positive integer', 1),
          'The most replies this scenario may give in total, repeats and restarts included.',
        ).optional(),
        steps: described(
          list('a list of steps', step, true),
          "The steps of the script. The first step answers first; each step's `next` says what may follow (default: the next step in the list, or completion after the last).",
        ).optional(),
        replies: described(
          list('a list of replies', reply, true),
          'Shorthand for a linear queue: each reply becomes a step without conditions, answered in order.',
        ).optional(),
        pacing: pacingOf("Pacing of this scenario's streamed answers (a step's pacing overrides the fields it sets)."),
      },
      {
        id: 'scenario',
        description: 'A named script: either a list of steps (with conditions and explicit next steps) or a plain queue of replies.',
        oneOf: [{ required: ['steps'] }, { required: ['replies'] }],
      },
    ),
    scenarioRule,
  );

  const scriptedVector = rule(
    object(
      'a scripted vector',
      {
        input: described(textMatchOrString, 'The input text this vector answers: an exact string, or a text match.'),
        model: described(text('a model name (a string)'), 'Only for requests naming this model.').optional(),
        vector: described(
          z
            .array(z.number({ error: (i) => `expected a number; found ${found(i.input)}` }), {
              error: (i) => `expected a vector (a list of numbers); found ${found(i.input)}`,
            })
            .min(1, { error: () => 'expected a vector with at least one number; found an empty list' })
            .max(MAX_DIMENSIONS, { error: () => `expected a vector of at most ${MAX_DIMENSIONS} numbers` }),
          'The embedding answered (sent as float32, as providers send vectors).',
        ).optional(),
        error: described(error, "Instead of a vector: the provider error the request gets (in the route's error shape).").optional(),
        delayMs: described(
          nonNegative('a delay in milliseconds (a number ≥ 0)'),
          'Milliseconds to wait before answering a request with this input (the first such input of the request decides).',
        ).optional(),
        fault: described(
          fault.optional(),
          'A failure part-way through the answer (truncate, malformed, stall, reset, close; an embeddings answer is not a stream, so kind error is refused: use `error`).',
        ),
      },
      {
        id: 'scriptedVector',
        description: 'A vector (or an error) an embedding request gets for an input that matches: exactly one of vector, error.',
        oneOf: [{ required: ['vector'] }, { required: ['error'] }],
      },
    ),
    scriptedVectorRule,
  );

  const { scriptedImage } = describeImageParts(z, { textMatchOrString, error, fault });
  const audio = describeAudioParts(z, { error, fault, textMatchOrString });

  const session = object(
    'session options',
    {
      fallback: described(
        oneOf(FALLBACK),
        'How the session answers a request that no scenario matches: "strict" fails it (with an explanation of the nearest miss), "auto" gives a zero-config answer.',
      ).optional(),
      pacing: pacingOf("Pacing of every streamed answer in the session (a scenario's or step's pacing overrides the fields it sets)."),
      streamFlavour: described(
        oneOf(STREAM_FLAVOURS),
        'How streams look on hosts with a flavour of their own: "plain" (the default) is the dialect\'s stream; "azure" adds Azure\'s leading prompt-filter chunk (empty `choices`) and a content-filter chunk without `delta` on Azure and Foundry Chat Completions routes.',
      ).optional(),
      models: described(
        z.array(z.string().min(1)),
        "The session's model catalogue. When given, Ollama's /api/chat and /api/generate refuse any other model with Ollama's 404 (`model 'x' not found`), and /api/tags, /api/show and /api/ps answer from it (a name without a tag means `:latest`); OpenAI's own Chat Completions routes refuse any other model with OpenAI's 404 `model_not_found`. Loading a fixture with `models` replaces the catalogue for the requests after.",
      ).optional(),
      videoCapacity: described(videoCapacity, "The session's budget for stored video jobs (docs/videos.md).").optional(),
    },
    { description: 'Options for the session these scenarios are loaded into.' },
  );

  const fixture = rule(
    object(
      'a fixture',
      {
        scenarios: described(
          list('a list of scenarios', scenario, false),
          'The scenarios of this file. Names must be unique within the file. At least one, unless the file scripts `embeddings`, `images`, `speech`, `transcriptions` or `videos`.',
        ),
        session: session.optional(),
        embeddings: described(
          list('a list of scripted vectors', scriptedVector, false),
          'Vectors that embedding requests get for chosen inputs, the first whose `input` (and `model`, when given) matches winning; any other input gets a vector derived from its text and model. Loading a fixture with `embeddings` replaces the list for the requests after (docs/embeddings.md).',
        ).optional(),
        images: described(
          list('a list of scripted images', scriptedImage, false),
          'What image requests get for chosen prompts, the first whose `prompt` (and `model`, when given) matches winning; any other prompt gets the default picture. Loading a fixture with `images` replaces the list for the requests after (docs/images.md).',
        ).optional(),
        ...audio.lists,
        videos: described(
          list('a list of scripted videos', scriptedVideo, false),
          'How video jobs made for chosen prompts run, the first whose `prompt` (and `model`, when given) matches winning; any other prompt gets a job that completes 10 seconds after it was made. Loading a fixture with `videos` replaces the list for the requests after (docs/videos.md).',
        ).optional(),
        $schema: described(
          text('a schema reference (string)'),
          'The JSON Schema this file follows (for editors); ignored by Understudy.',
        ).optional(),
      },
      {
        title: 'Understudy fixture file',
        description:
          'Scripted scenarios for Understudy, the stand-in for LLM provider HTTP APIs. Each scenario is a graph of steps (or a queue of replies) that answers matching requests.',
        // At least one scenario, unless the file scripts embedding vectors, images, audio or videos (scenariosOrEmbeddings).
        if: {
          not: {
            anyOf: [
              { required: ['embeddings'] },
              { required: ['images'] },
              { required: ['speech'] },
              { required: ['transcriptions'] },
              { required: ['videos'] },
            ],
          },
        },
        then: { properties: { scenarios: { type: 'array', minItems: 1 } } },
      },
    ),
    uniqueScenarioNames,
  );
  rule(fixture, scenariosOrEmbeddings);

  return {
    fixture,
    session,
    scriptedVector,
    scriptedImage,
    scriptedSpeech: audio.scriptedSpeech,
    scriptedTranscript: audio.scriptedTranscript,
    scriptedVideo,
    videoCapacity,
    scenario,
    step,
    when,
    reply,
    usage,
    recorded,
    answerShape,
    replyImage,
    toolCall,
    error,
    fault,
    pacing,
    textMatch,
    message,
    messageToolCall,
  };
}

export type FixtureFormat = ReturnType<typeof describeFixtureFormat>;

let loaded: FixtureFormat | undefined;

/** The format, built with zod on first use. */
export function fixtureFormat(): FixtureFormat {
  return (loaded ??= describeFixtureFormat(createRequire(import.meta.url)('zod') as typeof Z));
}
