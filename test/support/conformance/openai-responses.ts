// Conformance driver for OpenAI Responses, through the `openai` SDK: `responses.create` for JSON,
// the `responses.stream` helper for streams. The SDK yields a stream's `error` and
// `response.failed` events instead of throwing (wire-formats §19.8); the driver throws them.

import type { Response, ResponseCreateParamsBase } from 'openai/resources/responses/responses';
import { parsedArguments, StreamErrorEvent, type Answer, type ConformanceDriver, type Question } from './driver.js';
import { clientFor, openaiErrorOf, type ChatTarget } from './openai-chat.js';

function params(question: Question, model: string): ResponseCreateParamsBase {
  return {
    model,
    input: question.toolResult
      ? [
          { role: 'user', content: question.prompt },
          {
            type: 'function_call',
            call_id: question.toolResult.id,
            name: question.toolResult.name,
            arguments: JSON.stringify(question.toolResult.arguments),
          },
          { type: 'function_call_output', call_id: question.toolResult.id, output: question.toolResult.result },
        ]
      : question.prompt,
    store: false,
    ...(question.tools && {
      tools: question.tools.map((t) => ({
        type: 'function' as const,
        name: t.name,
        description: t.description,
        parameters: t.parameters,
        strict: false,
      })),
    }),
    ...(question.toolChoice && { tool_choice: { type: 'function' as const, name: question.toolChoice.name } }),
    ...(question.schema && {
      text: { format: { type: 'json_schema' as const, name: question.schema.name, schema: question.schema.schema, strict: false } },
    }),
    ...(question.malformed && { temperature: 'hot' as never }),
  };
}

function answerOf(response: Response, textDeltas: number): Answer {
  const toolCalls = response.output.flatMap((item) =>
    item.type === 'function_call' ? [{ id: item.call_id, name: item.name, arguments: parsedArguments(item.arguments) }] : [],
  );
  // `in_progress` is a response whose stream ended before its terminal event.
  const finished = response.status === 'completed' || response.status === 'incomplete';
  const usage = response.usage ? { input: response.usage.input_tokens, output: response.usage.output_tokens } : undefined;
  const requestId = (response as { _request_id?: string | null })._request_id ?? undefined;
  return { text: response.output_text, toolCalls, textDeltas, finish: finished ? response.status : undefined, usage, requestId };
}

export function openaiResponsesDriverAt(at: ChatTarget): ConformanceDriver {
  return {
    name: at.name,
    dialect: at.dialect,
    operations: { json: at.operation, stream: at.operation },
    errorTypes: at.errors?.errorTypes ?? { invalidRequest: 'invalid_request_error', rateLimited: 'requests', conflict: 'understudy_error' },
    lacks: at.lacks,
    connect(target) {
      const client = clientFor(at, target);
      return {
        async ask(question, mode) {
          if (mode === 'json') return answerOf(await client.responses.create({ ...params(question, at.model), stream: false }), 0);
          const stream = client.responses.stream({ ...params(question, at.model), stream: true });
          let textDeltas = 0;
          for await (const event of stream) {
            if (event.type === 'response.output_text.delta') textDeltas++;
            if (event.type === 'error') throw new StreamErrorEvent(event.message, event.code ?? undefined);
            if (event.type === 'response.failed')
              throw new StreamErrorEvent(event.response.error?.message ?? 'response.failed', event.response.error?.code);
          }
          return answerOf(await stream.finalResponse(), textDeltas);
        },
      };
    },
    errorOf(thrown) {
      if (thrown instanceof StreamErrorEvent) return { api: true, status: undefined, type: thrown.type, message: thrown.message };
      return (at.errors?.errorOf ?? openaiErrorOf)(thrown);
    },
  };
}

export const openaiResponsesDriver = openaiResponsesDriverAt({
  name: 'openai-responses',
  dialect: 'openai-responses',
  operation: 'openai.responses',
  provider: 'openai',
  model: 'gpt-4o-mini',
});
