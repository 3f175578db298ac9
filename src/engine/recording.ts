// A recorded exchange as a script step (decision 0017 item 1): the `when` made from the decoded
// request with the matcher's own description of messages, checked against that request by the
// matcher before it is kept, and the reply made from the upstream's answer read back.

import { latestUserText, toolCallsOf } from '../core/conversation.js';
import type { ChatRequest, JsonValue, Message, Pacing, Reply, ScriptedToolCall } from '../core/model.js';
import type { RecordedAnswer } from '../core/recorded-answer.js';
import { allPass, checkAll, compileWhen, describeMessage } from './predicates.js';
import type { MessageSpec, WhenSpec } from './spec.js';

/** How much of the request a recorded step's `when` holds: `conversation` (the model, the latest
 * user message, the history's tool calls and results in order, the declared tools) or `exact`
 * (the model, the whole history and the declared tools). */
export type RecordMatch = 'conversation' | 'exact';

export function recordedWhen(request: ChatRequest, match: RecordMatch): WhenSpec {
  const when: WhenSpec = { model: request.model };
  if (match === 'exact') {
    when.historyExact = request.messages.map(describeMessage);
  } else {
    const latest = latestUserText(request);
    if (latest !== undefined) when.latestUser = latest;
    const rounds = request.messages.filter((m) => toolCallsOf(m).length > 0 || m.parts.some((p) => p.type === 'tool_result'));
    if (rounds.length > 0) when.historyContains = rounds.map(describedAsSent);
  }
  if (request.tools.length > 0) when.hasTool = request.tools.length === 1 ? request.tools[0].name : request.tools.map((t) => t.name);
  const predicates = compileWhen(when);
  if (!allPass(predicates, request)) {
    const failed = checkAll(predicates, request).map((m) => m.predicate);
    throw new Error(`the recorded conditions do not match their own request (${failed.join(', ')})`);
  }
  return when;
}

/** A history message as the matcher describes it, less the call ids the application did not send
 * (the decoder made them from the calls' places, Gemini's and older Ollama servers' calls): on
 * replay Understudy's answer may carry ids of its own, which the application then sends back. */
function describedAsSent(message: Message): MessageSpec {
  const spec = describeMessage(message);
  const calls = toolCallsOf(message);
  if (spec.toolCalls) spec.toolCalls = spec.toolCalls.map((call, i) => (calls[i]?.idMade ? withoutId(call) : call));
  const result = message.parts.find((p) => p.type === 'tool_result');
  if (result?.type === 'tool_result' && result.callIdMade) delete spec.toolCallId;
  return spec;
}

function withoutId<T extends { id?: string }>(call: T): T {
  const { id: _id, ...rest } = call;
  return rest as T;
}

/** The script reply that answers as the upstream did. */
export function recordedReply(answer: RecordedAnswer, pacing?: Pacing): Reply {
  const reply: Reply = {};
  if (answer.content !== null) reply.text = answer.content;
  const joined = answer.chunks.join('');
  if (answer.content !== null && answer.chunks.length > 1 && joined === answer.content) reply.chunks = answer.chunks;
  if (answer.toolCalls.length > 0) reply.toolCalls = answer.toolCalls.map(scriptedCall);
  if (answer.reasoning !== null) reply.reasoning = answer.reasoning;
  const usual = answer.toolCalls.length > 0 ? 'tool_calls' : 'stop';
  if (answer.finishReason !== null && answer.finishReason !== usual) reply.finishReason = answer.finishReason;
  // Every count as reported, so that nothing on replay is counted afresh (a prompt cache included).
  if (answer.usage) {
    const { inputTokens, outputTokens, cachedInputTokens, reasoningTokens, cacheWriteTokens } = answer.usage;
    // The cached parts are parts of the prompt (docs/fixtures.md): an upstream that says otherwise
    // gets its prompt count raised to hold them, or the file would not load.
    const parts = cachedInputTokens + (cacheWriteTokens ?? 0);
    reply.usage = { inputTokens: Math.max(inputTokens, parts), outputTokens, cachedInputTokens, reasoningTokens };
    if (cacheWriteTokens !== undefined && cacheWriteTokens > 0) reply.usage.cacheWriteTokens = cacheWriteTokens;
  }
  if (pacing) reply.pacing = pacing;
  return reply;
}

/** Arguments kept as an object when sending it compactly gives back the very text, else verbatim. */
function scriptedCall(call: RecordedAnswer['toolCalls'][number]): ScriptedToolCall {
  let args: JsonValue = call.argumentsText;
  try {
    const parsed = JSON.parse(call.argumentsText) as JsonValue;
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && JSON.stringify(parsed) === call.argumentsText)
      args = parsed;
  } catch {
    // not JSON: sent verbatim
  }
  return { ...(call.id !== '' && { id: call.id }), name: call.name, arguments: args };
}
