// A Bedrock Converse answer read back (wire-kit/recorded-answer.ts): a Converse body, or
// ConverseStream's event-stream frames — reasoning, text and toolUse blocks assembled from their
// deltas by contentBlockIndex, messageStop's stop reason and metadata's usage; an exception frame
// is refused. The inverse of encode-response.ts and encode-stream.ts. Converse counts reasoning in
// its output tokens and reports no reasoning count: the usage read has reasoningTokens 0.

import type { FinishReason, Usage } from '../../core/model.js';
import { readEventPayloads, type EventPayload } from '../bedrock/read-event-stream.js';
import type { RecordedAnswer } from '../wire-kit/recorded-answer.js';
import { isObject } from '../wire-kit/values.js';

type Call = RecordedAnswer['toolCalls'][number];

const STOP: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
};

function stopOf(value: unknown): FinishReason | null {
  return typeof value === 'string' ? (STOP[value] ?? null) : null;
}

function usageOf(value: unknown): Usage | undefined {
  if (!isObject(value) || typeof value.inputTokens !== 'number' || typeof value.outputTokens !== 'number') return undefined;
  const num = (...v: unknown[]) => v.find((n): n is number => typeof n === 'number') ?? 0;
  // Nova's InvokeModel usage names the cache counts `…TokenCount`.
  const read = num(value.cacheReadInputTokens, value.cacheReadInputTokenCount);
  const write = num(value.cacheWriteInputTokens, value.cacheWriteInputTokenCount);
  return {
    inputTokens: value.inputTokens + read + write,
    outputTokens: value.outputTokens,
    cachedInputTokens: read,
    reasoningTokens: 0,
    ...(write > 0 && { cacheWriteTokens: write }),
  };
}

/** A Converse body (or Nova's InvokeModel body, the same shape); a string saying what is wrong
 * when it is not one. */
export function readConverseAnswer(body: unknown): RecordedAnswer | string {
  const output = isObject(body) && isObject(body.output) ? body.output : undefined;
  const message = output && isObject(output.message) ? output.message : undefined;
  if (!isObject(body) || !message || !Array.isArray(message.content)) return 'expected a Converse answer with output.message';
  const texts: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: Call[] = [];
  for (const block of message.content.filter(isObject)) {
    if (typeof block.text === 'string') texts.push(block.text);
    else if (isObject(block.reasoningContent)) {
      const text = isObject(block.reasoningContent.reasoningText) ? block.reasoningContent.reasoningText.text : undefined;
      if (typeof text === 'string') reasoning.push(text);
    } else if (isObject(block.toolUse)) {
      const use = block.toolUse;
      toolCalls.push({ id: String(use.toolUseId ?? ''), name: String(use.name ?? ''), argumentsText: JSON.stringify(use.input ?? {}) });
    }
  }
  const content = texts.length > 0 ? texts.join('') : null;
  return {
    content,
    chunks: content === null ? [] : [content],
    toolCalls,
    reasoning: reasoning.length > 0 ? reasoning.join('') : null,
    finishReason: stopOf(body.stopReason),
    usage: usageOf(body.usage),
  };
}

/** The answer of a Converse-shaped stream's events (ConverseStream's, and Nova's on
 * InvokeModelWithResponseStream); a string saying what is wrong. */
export function readConverseEvents(events: Iterable<EventPayload>): RecordedAnswer | string {
  const chunks: string[] = [];
  const reasoning: string[] = [];
  const calls = new Map<number, Call>();
  let finish: FinishReason | null = null;
  let stopped = false;
  let usage: Usage | undefined;
  for (const { type, value: event } of events) {
    const index = typeof event.contentBlockIndex === 'number' ? event.contentBlockIndex : -1;
    switch (type) {
      case 'contentBlockStart': {
        const use = isObject(event.start) && isObject(event.start.toolUse) ? event.start.toolUse : undefined;
        if (use) calls.set(index, { id: String(use.toolUseId ?? ''), name: String(use.name ?? ''), argumentsText: '' });
        break;
      }
      case 'contentBlockDelta': {
        const delta = isObject(event.delta) ? event.delta : {};
        if (typeof delta.text === 'string') {
          if (delta.text !== '') chunks.push(delta.text);
        } else if (isObject(delta.reasoningContent) && typeof delta.reasoningContent.text === 'string') {
          reasoning.push(delta.reasoningContent.text);
        } else if (isObject(delta.toolUse) && typeof delta.toolUse.input === 'string') {
          const call = calls.get(index);
          if (call) call.argumentsText += delta.toolUse.input;
        }
        break;
      }
      case 'messageStop':
        stopped = true;
        finish = stopOf(event.stopReason);
        break;
      case 'metadata':
        usage = usageOf(event.usage) ?? usage;
        break;
    }
  }
  if (!stopped) return 'the stream ended without messageStop';
  const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  for (const call of toolCalls) if (call.argumentsText === '') call.argumentsText = '{}';
  return {
    content: chunks.length > 0 ? chunks.join('') : null,
    chunks,
    toolCalls,
    reasoning: reasoning.length > 0 ? reasoning.join('') : null,
    finishReason: finish,
    usage,
  };
}

/** A ConverseStream body (latin1 text of its frames); a string saying what is wrong. */
export function readConverseStream(text: string): RecordedAnswer | string {
  const events = readEventPayloads(text);
  return typeof events === 'string' ? events : readConverseEvents(events);
}
