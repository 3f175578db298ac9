// Conformance driver for Cohere v1 Chat, through the CohereClient of the cohere-ai 7 that
// @langchain/cohere bundles (./cohere-v1-client.ts): `chat` for JSON, `chatStream` for its
// newline-delimited JSON events. v1 tool calls carry no id (`toolCallIds: false`) and v1 has no
// tool choice at all (`lacks: ['tool choice by name']`). The SDK's error class name stands for
// the provider's error type, as for v2; the SDK checks `temperature`'s type itself, so the
// malformed question goes through a fetch that puts the wrong-typed value into the body.

import { CohereClient, CohereError, CohereTimeoutError, type BundledCohereClient } from '../cohere-v1-client.js';
import { CLIENT_TIMEOUT_MS, parsedArguments, StreamErrorEvent, type Answer, type ConformanceDriver, type Question } from './driver.js';

type ChatRequest = Parameters<BundledCohereClient['chat']>[0];
type ChatResponse = Awaited<ReturnType<BundledCohereClient['chat']>>;

const MODEL = 'command-r-plus';

/** A JSON schema's properties as v1 parameter definitions: each property's schema and `required`. */
function parameterDefinitions(schema: Record<string, unknown>): Record<string, { type: string; required: boolean }> {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = (schema.required ?? []) as string[];
  return Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [
      name,
      { ...property, type: String(property.type), required: required.includes(name) },
    ]),
  );
}

function request(question: Question): ChatRequest {
  const result = question.toolResult;
  return {
    model: MODEL,
    message: result ? '' : question.prompt,
    ...(result && {
      chatHistory: [
        { role: 'USER' as const, message: question.prompt },
        { role: 'CHATBOT' as const, message: '', toolCalls: [{ name: result.name, parameters: result.arguments }] },
      ],
      toolResults: [{ call: { name: result.name, parameters: result.arguments }, outputs: [{ output: result.result }] }],
    }),
    ...(question.tools && {
      tools: question.tools.map((t) => ({
        name: t.name,
        description: t.description,
        // A schema without properties (any object) is a tool without definitions.
        ...(t.parameters.properties !== undefined && { parameterDefinitions: parameterDefinitions(t.parameters) }),
      })),
    }),
    ...(question.schema && { responseFormat: { type: 'json_object' as const, schema: question.schema.schema } }),
  };
}

/** A fetch that sends `temperature: "hot"`, which the SDK would refuse to send itself. */
const malformedFetch: typeof fetch = (input, init) => {
  const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
  return fetch(input, { ...init, body: JSON.stringify({ ...body, temperature: 'hot' }) });
};

function usageOf(meta: ChatResponse['meta']): Answer['usage'] {
  const tokens = meta?.tokens;
  if (tokens?.inputTokens === undefined || tokens.outputTokens === undefined) return undefined;
  return { input: tokens.inputTokens, output: tokens.outputTokens };
}

function callsOf(response: ChatResponse): Answer['toolCalls'] {
  return (response.toolCalls ?? []).map((c) => ({ id: undefined, name: c.name, arguments: parsedArguments(c.parameters) }));
}

export const cohereV1Driver: ConformanceDriver = {
  name: 'cohere-v1',
  dialect: 'cohere-v1',
  operations: { json: 'cohere.v1.chat', stream: 'cohere.v1.chat' },
  errorTypes: { invalidRequest: 'BadRequestError', rateLimited: 'TooManyRequestsError', conflict: 'CohereError' },
  lacks: ['tool choice by name'],
  toolCallIds: false,
  connect(target) {
    const options = { token: target.apiKey, environment: target.url('cohere'), maxRetries: 0, timeoutInSeconds: CLIENT_TIMEOUT_MS / 1000 };
    const client = new CohereClient(options);
    const malformed = new CohereClient({ ...options, fetch: malformedFetch });
    return {
      async ask(question, mode) {
        const sdk = question.malformed ? malformed : client;
        if (mode === 'json') {
          const { data: response, rawResponse } = await sdk.chat(request(question)).withRawResponse();
          // A turn that calls tools says its plan as its text; the suite's text is what it says besides.
          const text = response.toolCalls?.length ? '' : response.text;
          const requestId = rawResponse.headers.get('x-request-id') ?? undefined;
          return {
            text,
            toolCalls: callsOf(response),
            textDeltas: 0,
            finish: response.finishReason,
            usage: usageOf(response.meta),
            requestId,
          };
        }
        const stream = await sdk.chatStream(request(question));
        let text = '';
        let textDeltas = 0;
        let end: ChatResponse | undefined;
        let finish: string | undefined;
        for await (const event of stream) {
          if (event.eventType === 'text-generation') {
            text += event.text;
            textDeltas++;
          } else if (event.eventType === 'stream-end') {
            const error = (event as { error?: unknown }).error;
            if (typeof error === 'string') throw new StreamErrorEvent(error, undefined);
            end = event.response;
            finish = event.finishReason;
          }
        }
        if (end === undefined) throw new Error('the stream ended without stream-end');
        return { text, toolCalls: callsOf(end), textDeltas, finish, usage: usageOf(end.meta), requestId: undefined };
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
