// An Ollama answer read back (wire-kit/recorded-answer.ts): one object, or the NDJSON lines of a
// stream, of /api/chat (`message` with content, thinking and whole tool calls) or /api/generate
// (`response`, `thinking`); the `done: true` object's done_reason and counts. The inverse of
// encode-response.ts and encode-stream.ts. Ollama writes "" for no content: an empty content reads
// as none. Its eval_count holds the thinking too and it reports no cache: reasoningTokens and
// cachedInputTokens read 0. A tool call without an id (older servers) reads with id ''.

import type { FinishReason, Usage } from '../../core/model.js';
import type { RecordedAnswer } from '../wire-kit/recorded-answer.js';
import { isObject } from '../wire-kit/values.js';

interface Assembly {
  chunks: string[];
  thinking: string[];
  calls: RecordedAnswer['toolCalls'];
  done?: Record<string, unknown>;
}

function take(object: Record<string, unknown>, into: Assembly): string | undefined {
  if (typeof object.error === 'string') return `the answer is an error: ${object.error.slice(0, 120)}`;
  const message = isObject(object.message) ? object.message : undefined;
  if (!message && typeof object.response !== 'string') return 'expected an Ollama chat or generate answer';
  const text = message ? message.content : object.response;
  const thinking = message ? message.thinking : object.thinking;
  if (typeof text === 'string' && text !== '') into.chunks.push(text);
  if (typeof thinking === 'string' && thinking !== '') into.thinking.push(thinking);
  for (const call of (message && Array.isArray(message.tool_calls) ? message.tool_calls : []).filter(isObject)) {
    const fn = isObject(call.function) ? call.function : {};
    into.calls.push({
      id: typeof call.id === 'string' ? call.id : '',
      name: String(fn.name ?? ''),
      argumentsText: JSON.stringify(fn.arguments ?? {}),
    });
  }
  if (object.done === true) into.done = object;
  return undefined;
}

function finishOf(reason: unknown, calls: number): FinishReason | null {
  if (reason === 'length') return 'length';
  if (reason === 'stop') return calls > 0 ? 'tool_calls' : 'stop';
  return null;
}

function usageOf(done: Record<string, unknown>): Usage | undefined {
  if (typeof done.eval_count !== 'number' && typeof done.prompt_eval_count !== 'number') return undefined;
  const num = (v: unknown) => (typeof v === 'number' ? v : 0);
  return { inputTokens: num(done.prompt_eval_count), outputTokens: num(done.eval_count), cachedInputTokens: 0, reasoningTokens: 0 };
}

function answerOf(into: Assembly, done: Record<string, unknown>): RecordedAnswer {
  return {
    content: into.chunks.length > 0 ? into.chunks.join('') : null,
    chunks: into.chunks,
    toolCalls: into.calls,
    reasoning: into.thinking.length > 0 ? into.thinking.join('') : null,
    finishReason: finishOf(done.done_reason, into.calls.length),
    usage: usageOf(done),
  };
}

function assembly(): Assembly {
  return { chunks: [], thinking: [], calls: [] };
}

/** A /api/chat or /api/generate object (stream: false); a string saying what is wrong. */
export function readOllamaAnswer(body: unknown): RecordedAnswer | string {
  if (!isObject(body)) return 'expected an Ollama chat or generate answer';
  const into = assembly();
  const wrong = take(body, into);
  if (wrong !== undefined) return wrong;
  if (!into.done) return 'the answer is not done';
  const answer = answerOf(into, into.done);
  return { ...answer, chunks: answer.content === null ? [] : [answer.content] };
}

/** A stream's NDJSON text; a string saying what is wrong. */
export function readOllamaStream(text: string): RecordedAnswer | string {
  const into = assembly();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let object: unknown;
    try {
      object = JSON.parse(line);
    } catch {
      return `a line is not JSON: ${line.slice(0, 80)}`;
    }
    if (!isObject(object)) return 'a line is not an object';
    const wrong = take(object, into);
    if (wrong !== undefined) return wrong;
  }
  if (!into.done) return 'the stream ended without its done line';
  return answerOf(into, into.done);
}
