// Conformance drivers for Ollama's native API, through `ollama` (ollama-js): `chat` and `generate`,
// each with `stream: false` for JSON and `stream: true` (NDJSON) for streams. The session key goes
// in an Authorization header (ollama-js sends none of its own); a fetch of the driver's own gives
// every request a timeout and reads the `x-request-id` of each answer, which ollama-js does not
// expose. Ollama has no tool choice and /api/generate no tools.

import { Ollama, type ChatResponse, type GenerateResponse, type Message } from 'ollama';
import {
  CLIENT_TIMEOUT_MS,
  type Answer,
  type ConformanceClient,
  type ConformanceDriver,
  type ErrorSeen,
  type Question,
  type Target,
} from './driver.js';

const MODEL = 'llama3.2';

/** Ollama's error body carries no type: the drivers classify an error by its status. */
const STATUS_NAMES: Record<number, string> = {
  400: 'bad request',
  404: 'not found',
  409: 'conflict',
  429: 'too many requests',
  500: 'internal server error',
  503: 'service unavailable',
};

/** The end of a stream that never finished, as ollama-js words it. */
const UNFINISHED = 'Did not receive done or success response in stream.';

function clientFor(target: Target): { ollama: Ollama; lastRequestId: () => string | undefined } {
  let requestId: string | undefined;
  const timedFetch: typeof fetch = async (input, init) => {
    const timeout = AbortSignal.timeout(CLIENT_TIMEOUT_MS);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const response = await fetch(input, { ...init, signal });
    requestId = response.headers.get('x-request-id') ?? undefined;
    return response;
  };
  const ollama = new Ollama({ host: target.url('ollama'), headers: { Authorization: `Bearer ${target.apiKey}` }, fetch: timedFetch });
  return { ollama, lastRequestId: () => requestId };
}

function messages(question: Question): Message[] {
  const list: Message[] = [{ role: 'user', content: question.prompt }];
  const result = question.toolResult;
  if (result) {
    // Newer Ollama servers send a call id and read `tool_call_id` back; ollama-js's types lack both.
    const call = { id: result.id, function: { name: result.name, arguments: result.arguments } };
    list.push({ role: 'assistant', content: '', tool_calls: [call] });
    list.push({ role: 'tool', content: result.result, tool_name: result.name, tool_call_id: result.id } as Message);
  }
  return list;
}

function shared(question: Question) {
  return {
    model: MODEL,
    ...(question.schema && { format: question.schema.schema }),
    ...(question.malformed && { options: { temperature: 'hot' as never } }),
  };
}

function usageOf(last: ChatResponse | GenerateResponse | undefined): Answer['usage'] {
  return last?.done ? { input: last.prompt_eval_count, output: last.eval_count } : undefined;
}

function chatAnswer(parts: ChatResponse[], textDeltas: number, requestId: string | undefined): Answer {
  let text = '';
  const toolCalls: Answer['toolCalls'] = [];
  for (const part of parts) {
    text += part.message.content;
    for (const call of part.message.tool_calls ?? []) {
      toolCalls.push({ id: (call as { id?: string }).id, name: call.function.name, arguments: call.function.arguments });
    }
  }
  const last = parts.at(-1);
  return { text, toolCalls, textDeltas, finish: last?.done ? last.done_reason : undefined, usage: usageOf(last), requestId };
}

function generateAnswer(parts: GenerateResponse[], textDeltas: number, requestId: string | undefined): Answer {
  const text = parts.map((part) => part.response ?? '').join('');
  const last = parts.at(-1);
  return { text, toolCalls: [], textDeltas, finish: last?.done ? last.done_reason : undefined, usage: usageOf(last), requestId };
}

function chatClient(target: Target): ConformanceClient {
  const { ollama, lastRequestId } = clientFor(target);
  return {
    async ask(question, mode) {
      const request = {
        ...shared(question),
        messages: messages(question),
        ...(question.tools && {
          tools: question.tools.map((t) => ({
            type: 'function',
            function: { name: t.name, description: t.description, parameters: t.parameters },
          })),
        }),
      };
      if (mode === 'json') return chatAnswer([await ollama.chat({ ...request, stream: false })], 0, lastRequestId());
      const parts: ChatResponse[] = [];
      let textDeltas = 0;
      for await (const part of await ollama.chat({ ...request, stream: true })) {
        parts.push(part);
        if (part.message.content !== '') textDeltas++;
      }
      return chatAnswer(parts, textDeltas, lastRequestId());
    },
  };
}

function generateClient(target: Target): ConformanceClient {
  const { ollama, lastRequestId } = clientFor(target);
  return {
    async ask(question, mode) {
      const request = { ...shared(question), prompt: question.prompt };
      if (mode === 'json') return generateAnswer([await ollama.generate({ ...request, stream: false })], 0, lastRequestId());
      const parts: GenerateResponse[] = [];
      let textDeltas = 0;
      for await (const part of await ollama.generate({ ...request, stream: true })) {
        parts.push(part);
        if (part.response) textDeltas++;
      }
      return generateAnswer(parts, textDeltas, lastRequestId());
    },
  };
}

/** ollama-js throws a ResponseError (`error`, `status_code`) for an HTTP error, and a plain Error
 * with the line's text for an `{"error":…}` line inside a stream; a broken connection is a
 * TypeError from fetch, or the stream's "did not receive done". */
export function ollamaErrorOf(thrown: unknown): ErrorSeen {
  if (!(thrown instanceof Error)) throw new Error(`ollama threw something that is not an Error: ${String(thrown)}`);
  if (thrown.name === 'ResponseError') {
    const status = (thrown as Error & { status_code: number }).status_code;
    return { api: true, status, type: STATUS_NAMES[status], message: thrown.message };
  }
  const inStream = thrown.constructor === Error && thrown.message !== UNFINISHED;
  return { api: inStream, status: undefined, type: undefined, message: thrown.message };
}

const ERROR_TYPES = { invalidRequest: STATUS_NAMES[400], rateLimited: STATUS_NAMES[429], conflict: STATUS_NAMES[409] };

export const ollamaChatDriver: ConformanceDriver = {
  name: 'ollama-chat',
  dialect: 'ollama',
  operations: { json: 'ollama.chat', stream: 'ollama.chat' },
  errorTypes: ERROR_TYPES,
  lacks: ['tool choice by name'],
  connect: chatClient,
  errorOf: ollamaErrorOf,
};

export const ollamaGenerateDriver: ConformanceDriver = {
  name: 'ollama-generate',
  dialect: 'ollama',
  operations: { json: 'ollama.generate', stream: 'ollama.generate' },
  errorTypes: ERROR_TYPES,
  lacks: ['tools', 'tool choice by name'],
  connect: generateClient,
  errorOf: ollamaErrorOf,
};
