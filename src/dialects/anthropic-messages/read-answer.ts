// An Anthropic Messages answer read back (wire-kit/recorded-answer.ts): a `message` body, or a
// stream's events — thinking, text and tool_use blocks assembled from their deltas by index, the
// stop reason of message_delta, and the usage (message_start's prompt, message_delta's totals). The
// inverse of encode-response.ts and encode-stream.ts.

import type { FinishReason, Usage } from '../../core/model.js';
import { sseData, type RecordedAnswer } from '../wire-kit/recorded-answer.js';
import { isObject } from '../wire-kit/values.js';

const FINISH: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  refusal: 'content_filter',
};

function usageOf(value: unknown, base?: Usage): Usage | undefined {
  if (!isObject(value)) return base;
  const num = (v: unknown, fallback = 0) => (typeof v === 'number' ? v : fallback);
  const details = isObject(value.output_tokens_details) ? value.output_tokens_details : {};
  const reasoningTokens = num(details.thinking_tokens);
  const read = num(value.cache_read_input_tokens, base?.cachedInputTokens ?? 0);
  const write = num(value.cache_creation_input_tokens, base?.cacheWriteTokens ?? 0);
  const uncached = typeof value.input_tokens === 'number' ? value.input_tokens : base ? base.inputTokens - read - write : 0;
  return {
    inputTokens: uncached + read + write,
    outputTokens: num(value.output_tokens) - reasoningTokens,
    cachedInputTokens: read,
    reasoningTokens,
    ...(write > 0 && { cacheWriteTokens: write }),
  };
}

interface Blocks {
  chunks: string[];
  reasoning: string[];
  calls: { id: string; name: string; argumentsText: string }[];
}

function answerOf(blocks: Blocks, finishReason: FinishReason | null, usage: Usage | undefined): RecordedAnswer {
  return {
    content: blocks.chunks.length > 0 ? blocks.chunks.join('') : null,
    chunks: blocks.chunks,
    toolCalls: blocks.calls,
    reasoning: blocks.reasoning.length > 0 ? blocks.reasoning.join('') : null,
    finishReason,
    usage,
  };
}

/** A `message` body; a string saying what is wrong when it is not one. */
export function readMessageAnswer(body: unknown): RecordedAnswer | string {
  if (!isObject(body) || body.type !== 'message' || !Array.isArray(body.content)) return 'expected a message with content';
  const blocks: Blocks = { chunks: [], reasoning: [], calls: [] };
  for (const block of body.content.filter(isObject)) {
    if (block.type === 'text' && typeof block.text === 'string' && block.text !== '') blocks.chunks.push(block.text);
    else if (block.type === 'thinking' && typeof block.thinking === 'string') blocks.reasoning.push(block.thinking);
    else if (block.type === 'tool_use') {
      blocks.calls.push({ id: String(block.id ?? ''), name: String(block.name ?? ''), argumentsText: JSON.stringify(block.input ?? {}) });
    }
  }
  const finish = typeof body.stop_reason === 'string' ? (FINISH[body.stop_reason] ?? null) : null;
  return answerOf(blocks, finish, usageOf(body.usage));
}

/** A stream's text (`event:` and `data:` lines); a string saying what is wrong. */
export function readMessageStream(text: string): RecordedAnswer | string {
  const blocks: Blocks = { chunks: [], reasoning: [], calls: [] };
  const calls = new Map<number, { id: string; name: string; argumentsText: string }>();
  let finish: FinishReason | null = null;
  let usage: Usage | undefined;
  let stopped = false;
  for (const data of sseData(text)) {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      return `an event is not JSON: ${data.slice(0, 80)}`;
    }
    if (!isObject(value)) return 'an event is not an object';
    const index = typeof value.index === 'number' ? value.index : -1;
    switch (value.type) {
      case 'message_start':
        usage = usageOf(isObject(value.message) ? value.message.usage : undefined);
        break;
      case 'content_block_start': {
        const block = isObject(value.content_block) ? value.content_block : {};
        if (block.type === 'tool_use') {
          const call = { id: String(block.id ?? ''), name: String(block.name ?? ''), argumentsText: '' };
          calls.set(index, call);
          blocks.calls.push(call);
        }
        break;
      }
      case 'content_block_delta': {
        const delta = isObject(value.delta) ? value.delta : {};
        if (delta.type === 'text_delta' && typeof delta.text === 'string' && delta.text !== '') blocks.chunks.push(delta.text);
        else if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string') blocks.reasoning.push(delta.thinking);
        else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
          const call = calls.get(index);
          if (call) call.argumentsText += delta.partial_json;
        }
        break;
      }
      case 'message_delta': {
        const delta = isObject(value.delta) ? value.delta : {};
        if (typeof delta.stop_reason === 'string') finish = FINISH[delta.stop_reason] ?? null;
        usage = usageOf(value.usage, usage);
        break;
      }
      case 'message_stop':
        stopped = true;
        break;
      case 'error':
        return `the stream carried an error event: ${data.slice(0, 120)}`;
    }
  }
  if (!stopped) return 'the stream ended without message_stop';
  for (const call of blocks.calls) if (call.argumentsText === '') call.argumentsText = '{}';
  return answerOf(blocks, finish, usage);
}
