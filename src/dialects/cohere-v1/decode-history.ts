// The v1 conversation as neutral messages: the `preamble` as a system turn, `chat_history` turn by
// turn (USER, CHATBOT with its `tool_calls`, SYSTEM, TOOL with its `tool_results`), then the
// current `message` as the latest user turn (left out when empty) and the current `tool_results`.
//
// v1 tool calls carry no id. A call Understudy delivered gets the id it had (call-ids.ts); any
// other gets `<name>@<turn>.<index>` (its chat_history turn and its place in it). A result takes
// the id of the first call of the latest CHATBOT turn before it that has the same name and
// parameters and is not yet answered, else of one with the same name, else the id of a delivered
// call with its name and parameters, else `<name>@result.<index>`.

import type { JsonValue, Message, Part, ToolCallPart } from '../../core/model.js';
import { expectArray, expectEnum, expectObject, expectString, fail, requiredMember } from '../cohere/wording.js';
import { given } from '../wire-kit/values.js';
import type { DeliveredCallIds } from './call-ids.js';

const ROLES = ['USER', 'CHATBOT', 'SYSTEM', 'TOOL'] as const;

interface WireCall {
  name: string;
  parameters: Record<string, unknown>;
}

function wireCall(raw: unknown, path: string): WireCall {
  const call = expectObject(raw, path);
  const name = expectString(requiredMember(call, 'name', path), `${path}.name`);
  const parameters = expectObject(requiredMember(call, 'parameters', path), `${path}.parameters`);
  return { name, parameters };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The calls a result may answer: the latest CHATBOT turn's, each until it is answered. */
class OpenCalls {
  private calls: ToolCallPart[] = [];

  idOf(call: WireCall, fallback: string): string {
    return this.delivered?.idOf(call.name, call.parameters) ?? fallback;
  }

  reset(calls: ToolCallPart[]): void {
    this.calls = [...calls];
  }

  constructor(private readonly delivered: DeliveredCallIds | undefined) {}

  answer(call: WireCall, fallback: string): string {
    let at = this.calls.findIndex((c) => c.name === call.name && sameJson(c.arguments, call.parameters));
    if (at < 0) at = this.calls.findIndex((c) => c.name === call.name);
    if (at < 0) return this.delivered?.idOf(call.name, call.parameters) ?? fallback;
    const [answered] = this.calls.splice(at, 1);
    return answered.id;
  }
}

function toolResults(raw: unknown, path: string, open: OpenCalls): Part[] {
  return expectArray(raw, path).map((rawResult, i): Part => {
    const at = `${path}.${i}`;
    const result = expectObject(rawResult, at);
    const call = wireCall(requiredMember(result, 'call', at), `${at}.call`);
    const outputs = expectArray(requiredMember(result, 'outputs', at), `${at}.outputs`).map((o, j) =>
      expectObject(o, `${at}.outputs.${j}`),
    );
    const content = JSON.stringify(outputs.length === 1 ? outputs[0] : outputs);
    const callId = open.answer(call, `${call.name}@result.${i}`);
    return { type: 'tool_result', callId, name: call.name, content, isError: false };
  });
}

function chatbotParts(turn: Record<string, unknown>, index: number, path: string, open: OpenCalls): Part[] {
  const parts: Part[] = [];
  const text = expectString(turn.message, `${path}.message`);
  if (text !== '') parts.push({ type: 'text', text });
  const calls: ToolCallPart[] = [];
  if (given(turn.tool_calls)) {
    expectArray(turn.tool_calls, `${path}.tool_calls`).forEach((raw, i) => {
      const call = wireCall(raw, `${path}.tool_calls.${i}`);
      const argumentsText = JSON.stringify(call.parameters);
      calls.push({
        type: 'tool_call',
        id: open.idOf(call, `${call.name}@${index}.${i}`),
        name: call.name,
        argumentsText,
        arguments: call.parameters as JsonValue,
      });
    });
  }
  open.reset(calls);
  parts.push(...calls);
  return parts;
}

function historyTurn(raw: unknown, index: number, open: OpenCalls): Message {
  const path = `chat_history.${index}`;
  const turn = expectObject(raw, path);
  const role = expectEnum(requiredMember(turn, 'role', path), ROLES, `${path}.role`);
  if (role === 'TOOL') {
    const parts = given(turn.tool_results) ? toolResults(turn.tool_results, `${path}.tool_results`, open) : [];
    return { role: 'tool', parts };
  }
  // Cohere's own sentence for a turn without its text.
  if (typeof turn.message !== 'string') fail(`${path}.message`, 'all elements in history must have a message.');
  if (role === 'CHATBOT') return { role: 'assistant', parts: chatbotParts(turn, index, path, open) };
  return { role: role === 'USER' ? 'user' : 'system', parts: [{ type: 'text', text: turn.message }] };
}

export function decodeConversation(body: Record<string, unknown>, delivered?: DeliveredCallIds): Message[] {
  const messages: Message[] = [];
  if (given(body.preamble)) messages.push({ role: 'system', parts: [{ type: 'text', text: expectString(body.preamble, 'preamble') }] });
  const open = new OpenCalls(delivered);
  if (given(body.chat_history)) expectArray(body.chat_history, 'chat_history').forEach((t, i) => messages.push(historyTurn(t, i, open)));
  const message = expectString(requiredMember(body, 'message', ''), 'message');
  const results = given(body.tool_results) ? toolResults(body.tool_results, 'tool_results', open) : [];
  // Cohere's own sentence.
  if (message.trim() === '' && results.length === 0)
    fail('message', 'message must be at least 1 token long or tool results must be specified.');
  if (message !== '') messages.push({ role: 'user', parts: [{ type: 'text', text: message }] });
  if (results.length > 0) messages.push({ role: 'tool', parts: results });
  return messages;
}
