// A Gemini answer read back (wire-kit/recorded-answer.ts): a GenerateContentResponse, or the
// chunks of streamGenerateContent — `data:` events with `?alt=sse`, one JSON array without it —
// each holding only its new parts. Thought parts are the reasoning, text parts the content, and
// functionCall parts the calls (id '' when the wire has none, as Gemini's usually have none); the
// last finishReason and usageMetadata seen are the answer's. The inverse of encode-response.ts
// and encode-stream.ts. Image (inlineData) parts are not read: a recorded answer has no images.

import type { FinishReason, Usage } from '../../core/model.js';
import { sseData, type RecordedAnswer } from '../wire-kit/recorded-answer.js';
import { isObject } from '../wire-kit/values.js';

/** Gemini's finish reasons that are the content filter's (its safety and policy stops). */
const FILTERED = new Set([
  'SAFETY',
  'RECITATION',
  'LANGUAGE',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

function finishOf(reason: unknown, calls: number): FinishReason | null {
  if (reason === 'STOP') return calls > 0 ? 'tool_calls' : 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  if (typeof reason === 'string' && FILTERED.has(reason)) return 'content_filter';
  return null;
}

function usageOf(value: unknown): Usage | undefined {
  if (!isObject(value) || typeof value.promptTokenCount !== 'number') return undefined;
  const num = (v: unknown) => (typeof v === 'number' ? v : 0);
  return {
    inputTokens: value.promptTokenCount,
    outputTokens: num(value.candidatesTokenCount),
    cachedInputTokens: num(value.cachedContentTokenCount),
    reasoningTokens: num(value.thoughtsTokenCount),
  };
}

interface Assembly {
  chunks: string[];
  thoughts: string[];
  calls: RecordedAnswer['toolCalls'];
  text: boolean;
  finish: unknown;
  blocked: boolean;
  usage: Usage | undefined;
}

/** Takes one GenerateContentResponse (a whole answer or a stream's chunk) into the assembly. */
function take(response: Record<string, unknown>, into: Assembly): string | undefined {
  if (isObject(response.error)) return `the answer is an error: ${JSON.stringify(response.error).slice(0, 120)}`;
  if (!Array.isArray(response.candidates) && !isObject(response.usageMetadata) && !isObject(response.promptFeedback)) {
    return 'expected a GenerateContentResponse with candidates';
  }
  into.usage = usageOf(response.usageMetadata) ?? into.usage;
  const feedback = isObject(response.promptFeedback) ? response.promptFeedback : {};
  if (typeof feedback.blockReason === 'string') into.blocked = true;
  const candidate = Array.isArray(response.candidates) ? response.candidates.find(isObject) : undefined;
  if (candidate === undefined) return undefined;
  if (candidate.finishReason !== undefined) into.finish = candidate.finishReason;
  const content = isObject(candidate.content) ? candidate.content : {};
  for (const part of (Array.isArray(content.parts) ? content.parts : []).filter(isObject)) {
    if (typeof part.text === 'string') {
      if (part.thought === true) into.thoughts.push(part.text);
      else {
        into.text = true;
        if (part.text !== '') into.chunks.push(part.text);
      }
    } else if (isObject(part.functionCall)) {
      const call = part.functionCall;
      into.calls.push({
        id: typeof call.id === 'string' ? call.id : '',
        name: String(call.name ?? ''),
        argumentsText: JSON.stringify(call.args ?? {}),
      });
    }
  }
  return undefined;
}

function answerOf(into: Assembly): RecordedAnswer {
  return {
    content: into.text ? into.chunks.join('') : null,
    chunks: into.chunks,
    toolCalls: into.calls,
    reasoning: into.thoughts.length > 0 ? into.thoughts.join('') : null,
    finishReason: into.blocked ? 'content_filter' : finishOf(into.finish, into.calls.length),
    usage: into.usage,
  };
}

function assembly(): Assembly {
  return { chunks: [], thoughts: [], calls: [], text: false, finish: undefined, blocked: false, usage: undefined };
}

/** A generateContent body; a string saying what is wrong when it is not one. */
export function readGeminiAnswer(body: unknown): RecordedAnswer | string {
  if (!isObject(body)) return 'expected a GenerateContentResponse';
  const into = assembly();
  const wrong = take(body, into);
  if (wrong !== undefined) return wrong;
  const answer = answerOf(into);
  // A JSON answer arrives whole: its text is one piece.
  return { ...answer, chunks: answer.content === null ? [] : [answer.content] };
}

/** A streamGenerateContent body, SSE (`?alt=sse`) or a JSON array; a string saying what is wrong. */
export function readGeminiStream(text: string): RecordedAnswer | string {
  let responses: unknown[];
  if (text.trimStart().startsWith('[')) {
    try {
      responses = JSON.parse(text) as unknown[];
    } catch {
      return 'the stream is not a whole JSON array';
    }
  } else {
    responses = [];
    for (const data of sseData(text)) {
      try {
        responses.push(JSON.parse(data));
      } catch {
        return `an event is not JSON: ${data.slice(0, 80)}`;
      }
    }
  }
  if (responses.length === 0) return 'the stream holds no response';
  const into = assembly();
  for (const response of responses) {
    if (!isObject(response)) return 'a chunk is not an object';
    const wrong = take(response, into);
    if (wrong !== undefined) return wrong;
  }
  if (into.finish === undefined && !into.blocked) return 'the stream ended without a finishReason';
  return answerOf(into);
}
