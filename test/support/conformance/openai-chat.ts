// Conformance driver for OpenAI Chat Completions, through the `openai` SDK: `chat.completions.create`
// for JSON, the `chat.completions.stream` helper (which checks the stream's end) for streams.

import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { CLIENT_TIMEOUT_MS, parsedArguments, type Answer, type ConformanceDriver, type Question, type Target } from './driver.js';

function answerOf(completion: ChatCompletion, textDeltas: number, usage = completion.usage): Answer {
  const choice = completion.choices[0];
  return {
    text: choice.message.content ?? '',
    toolCalls: (choice.message.tool_calls ?? []).map((c) =>
      c.type === 'function'
        ? { id: c.id, name: c.function.name, arguments: parsedArguments(c.function.arguments) }
        : { id: c.id, name: `(${c.type} tool call)`, arguments: undefined },
    ),
    textDeltas,
    finish: choice.finish_reason,
    usage: usage && { input: usage.prompt_tokens, output: usage.completion_tokens },
    requestId: (completion as { _request_id?: string | null })._request_id ?? undefined,
  };
}

/** A question as a Chat Completions body (every client of that wire sends the same members). */
export function chatParams(question: Question, model: string): ChatCompletionCreateParamsBase {
  return {
    model,
    messages: [
      { role: 'user', content: question.prompt },
      ...(question.toolResult
        ? [
            {
              role: 'assistant' as const,
              content: null,
              tool_calls: [
                {
                  id: question.toolResult.id,
                  type: 'function' as const,
                  function: { name: question.toolResult.name, arguments: JSON.stringify(question.toolResult.arguments) },
                },
              ],
            },
            { role: 'tool' as const, tool_call_id: question.toolResult.id, content: question.toolResult.result },
          ]
        : []),
    ],
    ...(question.tools && {
      tools: question.tools.map((t) => ({
        type: 'function' as const,
        function: { name: t.name, description: t.description, parameters: t.parameters },
      })),
    }),
    ...(question.toolChoice && { tool_choice: { type: 'function' as const, function: { name: question.toolChoice.name } } }),
    ...(question.schema && {
      response_format: { type: 'json_schema' as const, json_schema: { name: question.schema.name, schema: question.schema.schema } },
    }),
    ...(question.malformed && { temperature: 'hot' as never }),
  };
}

/** Where a driver of the `openai` SDK's Chat Completions points it: OpenAI, or a host of the dialect. */
export interface ChatTarget {
  name: string;
  dialect: string;
  operation: string;
  /** The `mock.url(...)` name of its base URL. */
  provider: string;
  model: string;
  lacks?: ConformanceDriver['lacks'];
  /** A host's error types and error reader, when its error body is not OpenAI's. */
  errors?: Pick<ConformanceDriver, 'errorTypes' | 'errorOf'>;
  /** A client of the host's own making (e.g. `AzureOpenAI`); the `openai` client at the base URL when left out. */
  client?: (target: Target) => OpenAI;
}

/** The `openai` client at a target's base URL, or the host's own. */
export function clientFor(at: ChatTarget, target: Target): OpenAI {
  if (at.client) return at.client(target);
  return new OpenAI({
    baseURL: target.url(at.provider),
    apiKey: target.apiKey,
    maxRetries: 0,
    timeout: CLIENT_TIMEOUT_MS,
    logLevel: 'off',
  });
}

const OPENAI_ERROR_TYPES = { invalidRequest: 'invalid_request_error', rateLimited: 'requests', conflict: 'understudy_error' };

export function openaiChatDriverAt(at: ChatTarget): ConformanceDriver {
  return {
    name: at.name,
    dialect: at.dialect,
    operations: { json: at.operation, stream: at.operation },
    errorTypes: at.errors?.errorTypes ?? OPENAI_ERROR_TYPES,
    lacks: at.lacks,
    connect(target) {
      const client = clientFor(at, target);
      return {
        async ask(question, mode) {
          if (mode === 'json')
            return answerOf(await client.chat.completions.create({ ...chatParams(question, at.model), stream: false }), 0);
          const stream = client.chat.completions.stream({
            ...chatParams(question, at.model),
            stream: true,
            stream_options: { include_usage: true },
          });
          let textDeltas = 0;
          let usage: CompletionUsage | undefined;
          stream.on('content.delta', () => textDeltas++);
          // The helper's final completion leaves out the usage chunk's record.
          stream.on('chunk', (chunk) => (usage = chunk.usage ?? usage));
          return answerOf(await stream.finalChatCompletion(), textDeltas, usage);
        },
      };
    },
    errorOf: at.errors?.errorOf ?? openaiErrorOf,
  };
}

/** What the `openai` SDK threw, in neutral terms (every driver of that SDK reads errors so). */
export function openaiErrorOf(thrown: unknown) {
  if (thrown instanceof OpenAI.APIError) {
    const body = thrown.error as { type?: string; message?: string } | undefined;
    return {
      api: !(thrown instanceof OpenAI.APIConnectionError),
      status: thrown.status,
      type: body?.type ?? thrown.type ?? undefined,
      message: thrown.message,
    };
  }
  if (thrown instanceof Error) return { api: false, status: undefined, type: undefined, message: thrown.message };
  throw new Error(`openai threw something that is not an Error: ${String(thrown)}`);
}

export const openaiChatDriver = openaiChatDriverAt({
  name: 'openai-chat',
  dialect: 'openai-chat',
  operation: 'openai.chat.completions',
  provider: 'openai',
  model: 'gpt-4o-mini',
});
