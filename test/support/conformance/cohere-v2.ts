// Conformance driver for Cohere v2 Chat, through `cohere-ai`'s CohereClientV2: `chat` for JSON,
// `chatStream` for streams. The SDK's error classes carry no provider type (Cohere's error body is
// only an id and a message), so the class name stands for it. Cohere cannot name one tool
// (tool_choice is REQUIRED or NONE), so the cases that ask for that are skipped; REQUIRED and NONE
// have tests of their own (test/cohere-v2-sdk.test.ts). The SDK checks `temperature` itself, so the
// malformed question goes through a fetch that puts the wrong-typed value into the body it sends.

import { Cohere, CohereClientV2, CohereError, CohereTimeoutError } from 'cohere-ai';
import { CLIENT_TIMEOUT_MS, parsedArguments, StreamErrorEvent, type Answer, type ConformanceDriver, type Question } from './driver.js';

const MODEL = 'command-a-03-2025';

function messages(question: Question): Cohere.ChatMessages {
  return [
    { role: 'user', content: question.prompt },
    ...(question.toolResult
      ? [
          {
            role: 'assistant' as const,
            toolPlan: `I will call ${question.toolResult.name}.`,
            toolCalls: [
              {
                id: question.toolResult.id,
                type: 'function' as const,
                function: { name: question.toolResult.name, arguments: JSON.stringify(question.toolResult.arguments) },
              },
            ],
          },
          { role: 'tool' as const, toolCallId: question.toolResult.id, content: question.toolResult.result },
        ]
      : []),
  ];
}

function request(question: Question): Cohere.V2ChatRequest {
  return {
    model: MODEL,
    messages: messages(question),
    ...(question.tools && {
      tools: question.tools.map((t) => ({
        type: 'function' as const,
        function: { name: t.name, description: t.description, parameters: t.parameters },
      })),
    }),
    ...(question.schema && { responseFormat: { type: 'json_object' as const, jsonSchema: question.schema.schema } }),
  };
}

/** A fetch that sends `temperature: "hot"`, which the SDK would refuse to send itself. */
const malformedFetch: typeof fetch = (input, init) => {
  const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
  return fetch(input, { ...init, body: JSON.stringify({ ...body, temperature: 'hot' }) });
};

function usageOf(usage: Cohere.Usage | undefined): Answer['usage'] {
  const tokens = usage?.tokens;
  if (tokens?.inputTokens === undefined || tokens.outputTokens === undefined) return undefined;
  return { input: tokens.inputTokens, output: tokens.outputTokens };
}

export const cohereV2Driver: ConformanceDriver = {
  name: 'cohere-v2',
  dialect: 'cohere-v2',
  operations: { json: 'cohere.chat', stream: 'cohere.chat' },
  errorTypes: { invalidRequest: 'BadRequestError', rateLimited: 'TooManyRequestsError', conflict: 'CohereError' },
  lacks: ['tool choice by name'],
  connect(target) {
    const options = { token: target.apiKey, environment: target.url('cohere'), maxRetries: 0, timeoutInSeconds: CLIENT_TIMEOUT_MS / 1000 };
    const client = new CohereClientV2(options);
    const malformed = new CohereClientV2({ ...options, fetch: malformedFetch });
    return {
      async ask(question, mode) {
        const sdk = question.malformed ? malformed : client;
        if (mode === 'json') {
          const { data: response, rawResponse } = await sdk.chat(request(question)).withRawResponse();
          const text = (response.message.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('');
          const toolCalls = (response.message.toolCalls ?? []).map((c) => ({
            id: c.id,
            name: c.function?.name ?? '',
            arguments: parsedArguments(c.function?.arguments),
          }));
          const requestId = rawResponse.headers.get('x-request-id') ?? undefined;
          return { text, toolCalls, textDeltas: 0, finish: response.finishReason, usage: usageOf(response.usage), requestId };
        }
        const stream = await sdk.chatStream(request(question));
        let text = '';
        let textDeltas = 0;
        let finish: string | undefined;
        let usage: Answer['usage'];
        const calls: { id: string; name: string; args: string }[] = [];
        for await (const event of stream) {
          if (event.type === 'content-delta') {
            const piece = event.delta?.message?.content?.text;
            if (piece !== undefined) {
              text += piece;
              textDeltas++;
            }
          } else if (event.type === 'tool-call-start') {
            const call = event.delta?.message?.toolCalls;
            calls.push({ id: call?.id ?? '', name: call?.function?.name ?? '', args: call?.function?.arguments ?? '' });
          } else if (event.type === 'tool-call-delta') {
            const last = calls.at(-1);
            if (last) last.args += event.delta?.message?.toolCalls?.function?.arguments ?? '';
          } else if (event.type === 'message-end') {
            if (event.delta?.error !== undefined) throw new StreamErrorEvent(event.delta.error, undefined);
            finish = event.delta?.finishReason;
            usage = usageOf(event.delta?.usage);
          }
        }
        const toolCalls = calls.map((c) => ({ id: c.id, name: c.name, arguments: parsedArguments(c.args) }));
        return { text, toolCalls, textDeltas, finish, usage, requestId: undefined };
      },
    };
  },
  errorOf(thrown) {
    if (thrown instanceof StreamErrorEvent) return { api: true, status: undefined, type: thrown.type, message: thrown.message };
    if (thrown instanceof CohereTimeoutError) return { api: false, status: undefined, type: undefined, message: thrown.message };
    if (thrown instanceof CohereError) {
      return { api: thrown.statusCode !== undefined, status: thrown.statusCode, type: thrown.constructor.name, message: thrown.message };
    }
    if (thrown instanceof Error) return { api: false, status: undefined, type: undefined, message: thrown.message };
    throw new Error(`cohere-ai threw something that is not an Error: ${String(thrown)}`);
  },
};
