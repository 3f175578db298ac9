// Conformance driver for Mistral's Chat Completions through its own SDK, `@mistralai/mistralai`
// (Speakeasy): `chat.complete` for JSON, `chat.stream` for streams. The SDK validates every answer
// and chunk with zod, so each case also checks that Understudy's Mistral answers pass it; it checks
// requests too, so a malformed request is one it lets through (a temperature below zero), and it
// cannot report an error inside a stream as an error: such a stream ends with finish_reason "error".

import { Mistral } from '@mistralai/mistralai';
import type { ChatCompletionRequest, ChatCompletionResponse, CompletionChunk } from '@mistralai/mistralai/models/components';
import { HTTPClient } from '@mistralai/mistralai/lib/http';
import { MistralError } from '@mistralai/mistralai/models/errors';
import { CLIENT_TIMEOUT_MS, parsedArguments, type Answer, type ConformanceDriver, type ErrorSeen, type Question } from './driver.js';

function params(question: Question): ChatCompletionRequest {
  return {
    model: 'mistral-small-latest',
    messages: [
      { role: 'user', content: question.prompt },
      ...(question.toolResult
        ? [
            {
              role: 'assistant' as const,
              toolCalls: [
                {
                  id: question.toolResult.id,
                  type: 'function' as const,
                  function: { name: question.toolResult.name, arguments: JSON.stringify(question.toolResult.arguments) },
                },
              ],
            },
            {
              role: 'tool' as const,
              toolCallId: question.toolResult.id,
              name: question.toolResult.name,
              content: question.toolResult.result,
            },
          ]
        : []),
    ],
    ...(question.tools && {
      tools: question.tools.map((t) => ({
        type: 'function' as const,
        function: { name: t.name, description: t.description, parameters: t.parameters },
      })),
    }),
    ...(question.toolChoice && { toolChoice: { type: 'function' as const, function: { name: question.toolChoice.name } } }),
    ...(question.schema && {
      responseFormat: {
        type: 'json_schema' as const,
        jsonSchema: { name: question.schema.name, schemaDefinition: question.schema.schema },
      },
    }),
    ...(question.malformed && { temperature: -1 }),
  };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c: { text?: string }) => c.text ?? '').join('');
  return '';
}

function answerOf(completion: ChatCompletionResponse, requestId: string | undefined): Answer {
  const choice = completion.choices[0];
  return {
    text: textOf(choice.message?.content),
    toolCalls: (choice.message?.toolCalls ?? []).map((c) => ({
      id: c.id,
      name: c.function.name,
      arguments: parsedArguments(c.function.arguments),
    })),
    textDeltas: 0,
    finish: choice.finishReason,
    usage: { input: completion.usage.promptTokens ?? 0, output: completion.usage.completionTokens ?? 0 },
    requestId,
  };
}

async function streamedAnswer(stream: AsyncIterable<{ data: CompletionChunk }>): Promise<Answer> {
  let text = '';
  let textDeltas = 0;
  let finish: string | undefined;
  let usage: Answer['usage'];
  const toolCalls: Answer['toolCalls'] = [];
  for await (const { data } of stream) {
    if (data.usage) usage = { input: data.usage.promptTokens ?? 0, output: data.usage.completionTokens ?? 0 };
    const choice = data.choices[0];
    if (!choice) continue;
    const piece = textOf(choice.delta.content);
    if (piece) {
      text += piece;
      textDeltas++;
    }
    // Whole in one chunk, as Mistral sends them (its SDK's schema needs each call's name and arguments).
    for (const call of choice.delta.toolCalls ?? [])
      toolCalls.push({ id: call.id, name: call.function.name, arguments: parsedArguments(call.function.arguments) });
    if (choice.finishReason) finish = choice.finishReason;
  }
  return { text, toolCalls, textDeltas, finish, usage, requestId: undefined };
}

export const mistralChatDriver: ConformanceDriver = {
  name: 'mistral-chat',
  dialect: 'openai-chat@mistral',
  operations: { json: 'mistral.chat.completions', stream: 'mistral.chat.completions' },
  errorTypes: { invalidRequest: 'invalid_request_error', rateLimited: 'rate_limited', conflict: 'understudy_error' },
  invalidRequestStatus: 422,
  streamErrorFinish: 'error',
  connect(target) {
    // The SDK hands back no response headers: a hook reads the request id of each answer.
    let requestId: string | undefined;
    const httpClient = new HTTPClient().addHook(
      'response',
      (response) => void (requestId = response.headers.get('x-request-id') ?? undefined),
    );
    const client = new Mistral({ apiKey: target.apiKey, serverURL: target.url('mistral'), timeoutMs: CLIENT_TIMEOUT_MS, httpClient });
    return {
      async ask(question, mode) {
        if (mode === 'json') {
          const completion = await client.chat.complete(params(question));
          return answerOf(completion, requestId);
        }
        return streamedAnswer(await client.chat.stream(params(question)));
      },
    };
  },
  errorOf: mistralErrorOf,
};

/** What the Mistral SDK threw, in neutral terms: SDKError and HTTPValidationError carry the status
 * and the body's text; anything else (connection, validation of a broken chunk) is no API error. */
export function mistralErrorOf(thrown: unknown): ErrorSeen {
  if (thrown instanceof MistralError) {
    let type: string | undefined;
    try {
      type = (JSON.parse(thrown.body) as { type?: string }).type;
    } catch {
      type = undefined;
    }
    return { api: true, status: thrown.statusCode, type, message: `${thrown.message} ${thrown.body}` };
  }
  if (thrown instanceof Error) return { api: false, status: undefined, type: undefined, message: thrown.message };
  throw new Error(`the Mistral SDK threw something that is not an Error: ${String(thrown)}`);
}
