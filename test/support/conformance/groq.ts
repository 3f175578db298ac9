// Conformance driver for Groq's Chat Completions through its own SDK, `groq-sdk` (Stainless, as
// `openai`): `chat.completions.create` for JSON and for streams (the SDK has no stream helper, so
// the driver assembles the streamed answer from the chunks, as an application does).

import Groq from 'groq-sdk';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParamsBase } from 'groq-sdk/resources/chat/completions';
import { CLIENT_TIMEOUT_MS, parsedArguments, type Answer, type ConformanceDriver, type ErrorSeen, type Question } from './driver.js';
import { chatParams } from './openai-chat.js';

/** The question as OpenAI's Chat Completions body, which groq-sdk's types describe member for member. */
function params(question: Question): ChatCompletionCreateParamsBase {
  return chatParams(question, 'llama-3.3-70b-versatile') as unknown as ChatCompletionCreateParamsBase;
}

function answerOf(completion: ChatCompletion, requestId: string | undefined): Answer {
  const choice = completion.choices[0];
  return {
    text: choice.message.content ?? '',
    toolCalls: (choice.message.tool_calls ?? []).map((c) => ({
      id: c.id,
      name: c.function.name,
      arguments: parsedArguments(c.function.arguments),
    })),
    textDeltas: 0,
    finish: choice.finish_reason,
    usage: completion.usage && { input: completion.usage.prompt_tokens, output: completion.usage.completion_tokens },
    requestId,
  };
}

/** A streamed answer, put together from its chunks; Groq's usage rides on the last chunk's x_groq. */
async function streamedAnswer(stream: AsyncIterable<ChatCompletionChunk>): Promise<Answer> {
  let text = '';
  let textDeltas = 0;
  let finish: string | undefined;
  let usage: Answer['usage'];
  const calls: { id?: string; name: string; text: string }[] = [];
  for await (const chunk of stream) {
    const groqUsage = chunk.x_groq?.usage;
    if (groqUsage) usage = { input: groqUsage.prompt_tokens, output: groqUsage.completion_tokens };
    const choice = chunk.choices[0];
    if (!choice) continue;
    if (choice.delta.content) {
      text += choice.delta.content;
      textDeltas++;
    }
    for (const call of choice.delta.tool_calls ?? []) {
      calls[call.index] ??= { name: '', text: '' };
      const seen = calls[call.index];
      if (call.id) seen.id = call.id;
      if (call.function?.name) seen.name = call.function.name;
      seen.text += call.function?.arguments ?? '';
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  const toolCalls = calls.map((c) => ({ id: c.id, name: c.name, arguments: parsedArguments(c.text) }));
  return { text, toolCalls, textDeltas, finish, usage, requestId: undefined };
}

export const groqChatDriver: ConformanceDriver = {
  name: 'groq-chat',
  dialect: 'openai-chat@groq',
  operations: { json: 'groq.chat.completions', stream: 'groq.chat.completions' },
  errorTypes: { invalidRequest: 'invalid_request_error', rateLimited: 'requests', conflict: 'understudy_error' },
  connect(target) {
    const client = new Groq({ baseURL: target.url('groq'), apiKey: target.apiKey, maxRetries: 0, timeout: CLIENT_TIMEOUT_MS });
    return {
      async ask(question, mode) {
        if (mode === 'json') {
          const { data, response } = await client.chat.completions.create({ ...params(question), stream: false }).withResponse();
          return answerOf(data, response.headers.get('x-request-id') ?? undefined);
        }
        return streamedAnswer(await client.chat.completions.create({ ...params(question), stream: true }));
      },
    };
  },
  errorOf: groqErrorOf,
};

/** What groq-sdk threw, in neutral terms: its APIError's `error` is the whole error body. */
export function groqErrorOf(thrown: unknown): ErrorSeen {
  if (thrown instanceof Groq.APIError) {
    const body = thrown.error as { error?: { type?: string } } | undefined;
    return {
      api: !(thrown instanceof Groq.APIConnectionError),
      status: thrown.status,
      type: body?.error?.type,
      message: thrown.message,
    };
  }
  if (thrown instanceof Error) return { api: false, status: undefined, type: undefined, message: thrown.message };
  throw new Error(`groq-sdk threw something that is not an Error: ${String(thrown)}`);
}
