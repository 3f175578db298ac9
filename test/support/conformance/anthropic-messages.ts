// Conformance driver for Anthropic Messages, through `@anthropic-ai/sdk`: `messages.create` for
// JSON, the `messages.stream` helper (whose finalMessage() rejects a stream that ends early) for streams.

import Anthropic from '@anthropic-ai/sdk';
import type { Message, MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages/messages';
import { CLIENT_TIMEOUT_MS, type Answer, type ConformanceDriver, type Question } from './driver.js';

const MODEL = 'claude-sonnet-4-6';

function params(question: Question): MessageCreateParamsBase {
  return {
    model: MODEL,
    max_tokens: 256,
    messages: [
      { role: 'user', content: question.prompt },
      ...(question.toolResult
        ? [
            {
              role: 'assistant' as const,
              content: [
                {
                  type: 'tool_use' as const,
                  id: question.toolResult.id,
                  name: question.toolResult.name,
                  input: question.toolResult.arguments,
                },
              ],
            },
            {
              role: 'user' as const,
              content: [{ type: 'tool_result' as const, tool_use_id: question.toolResult.id, content: question.toolResult.result }],
            },
          ]
        : []),
    ],
    ...(question.tools && {
      tools: question.tools.map((t) => ({
        name: t.name,
        description: t.description,
        input_schema: t.parameters as Anthropic.Tool.InputSchema,
      })),
    }),
    ...(question.toolChoice && { tool_choice: { type: 'tool' as const, name: question.toolChoice.name } }),
    ...(question.schema && { output_config: { format: { type: 'json_schema' as const, schema: question.schema.schema } } }),
    ...(question.malformed && { temperature: 'hot' as never }),
  };
}

function answerOf(message: Message, textDeltas: number, requestId = (message as { _request_id?: string | null })._request_id): Answer {
  let text = '';
  const toolCalls: Answer['toolCalls'] = [];
  for (const block of message.content) {
    if (block.type === 'text') text += block.text;
    if (block.type === 'tool_use') toolCalls.push({ id: block.id, name: block.name, arguments: block.input });
  }
  const usage = { input: message.usage.input_tokens, output: message.usage.output_tokens };
  return { text, toolCalls, textDeltas, finish: message.stop_reason ?? undefined, usage, requestId: requestId ?? undefined };
}

export const anthropicMessagesDriver: ConformanceDriver = {
  name: 'anthropic-messages',
  dialect: 'anthropic-messages',
  operations: { json: 'anthropic.messages', stream: 'anthropic.messages' },
  errorTypes: { invalidRequest: 'invalid_request_error', rateLimited: 'rate_limit_error', conflict: 'conflict_error' },
  connect(target) {
    const client = new Anthropic({ baseURL: target.url('anthropic'), apiKey: target.apiKey, maxRetries: 0, timeout: CLIENT_TIMEOUT_MS });
    return {
      async ask(question, mode) {
        if (mode === 'json') return answerOf(await client.messages.create({ ...params(question), stream: false }), 0);
        const stream = client.messages.stream(params(question));
        let textDeltas = 0;
        stream.on('text', () => textDeltas++);
        const message = await stream.finalMessage();
        return answerOf(message, textDeltas, stream.request_id);
      },
    };
  },
  errorOf(thrown) {
    if (thrown instanceof Anthropic.APIError) {
      const body = thrown.error as { type?: string; error?: { type?: string } } | undefined;
      return {
        api: !(thrown instanceof Anthropic.APIConnectionError),
        status: thrown.status,
        type: body?.error?.type ?? thrown.type ?? undefined,
        message: thrown.message,
      };
    }
    if (thrown instanceof Error) return { api: false, status: undefined, type: undefined, message: thrown.message };
    throw new Error(`@anthropic-ai/sdk threw something that is not an Error: ${String(thrown)}`);
  },
};
