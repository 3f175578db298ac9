// `messages` and `system` to neutral messages. A user message's toolResult blocks each become a
// neutral `tool` message (so "after the latest user message" means what it means on the other
// wires), its other blocks a `user` message, in wire order. The conversation must start with a
// user message and alternate roles, and each assistant turn's toolUse blocks must be answered by
// toolResult blocks in the next user message, as the API requires.

import type { Message, Part } from '../../core/model.js';
import { given } from '../wire-kit/values.js';
import {
  element,
  expectArray,
  expectEnum,
  expectObject,
  expectString,
  fail,
  onlyMembers,
  requiredMember,
  unionMember,
} from '../bedrock/wording.js';
import { cachePoint, contentBlock, guardContent } from './decode-blocks.js';
import type { Scope } from './decode-scope.js';
import { pushUserTurn } from '../wire-kit/user-turn.js';

const MESSAGE_MEMBERS = new Set(['role', 'content']);
const ROLES = ['user', 'assistant'] as const;

export function decodeMessages(raw: unknown, scope: Scope): Message[] {
  const wire = expectArray(raw, 'messages');
  if (wire.length === 0) {
    fail('messages', 'A conversation must start with a user message. Try again with a conversation that starts with a user message.');
  }
  const out: Message[] = [];
  /** The toolUse ids of the previous assistant message. */
  let asked: string[] = [];
  wire.forEach((rawMessage, i) => {
    const path = element('messages', i);
    const m = expectObject(rawMessage, path);
    onlyMembers(m, MESSAGE_MEMBERS, path);
    const role = expectEnum(requiredMember(m, 'role', path), ROLES, `${path}.role`);
    if (i === 0 && role !== 'user') {
      fail(path, 'A conversation must start with a user message. Try again with a conversation that starts with a user message.');
    }
    const previous = i > 0 ? (wire[i - 1] as { role?: unknown }).role : undefined;
    if (previous === role) {
      fail(
        path,
        'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.',
      );
    }
    const blocks = expectArray(requiredMember(m, 'content', path), `${path}.content`);
    if (blocks.length === 0) {
      fail(
        `${path}.content`,
        `The content field in the Message object at ${path} is empty. Add a ContentBlock object to the content field and try again.`,
      );
    }
    const parts: Part[] = [];
    const uses: string[] = [];
    const results: string[] = [];
    blocks.forEach((block, j) => {
      const part = contentBlock(block, element(`${path}.content`, j), role, scope);
      if (part) parts.push(part);
      if (part?.type === 'tool_call') uses.push(part.id);
      if (part?.type === 'tool_result') results.push(part.callId);
    });
    if (role === 'assistant') {
      out.push({ role, parts });
    } else {
      checkAnswered(asked, results, `${path}.content`);
      pushUserTurn(parts, out);
    }
    asked = role === 'assistant' ? uses : [];
  });
  if (asked.length > 0) {
    // A trailing assistant turn that asked for tools: the API wants their results next.
    fail(
      `messages.${wire.length - 1}`,
      `Expected toolResult blocks after messages.${wire.length - 1} for the following Ids: ${asked.join(', ')}`,
    );
  }
  return out;
}

/** The toolResult blocks of a user message answer exactly the previous turn's toolUse blocks. */
function checkAnswered(asked: string[], results: string[], path: string): void {
  if (results.length > asked.length) {
    fail(path, `The number of toolResult blocks at ${path} exceeds the number of toolUse blocks of previous turn.`);
  }
  const missing = asked.filter((id) => !results.includes(id));
  if (missing.length > 0) fail(path, `Expected toolResult blocks at ${path} for the following Ids: ${missing.join(', ')}`);
}

/** `system`: text blocks (one system message), guard content and cache points. */
export function decodeSystem(raw: unknown, scope: Scope): Message | null {
  if (!given(raw)) return null;
  const parts: Part[] = [];
  expectArray(raw, 'system').forEach((rawBlock, i) => {
    const path = element('system', i);
    const block = expectObject(rawBlock, path);
    const kind = unionMember(block, ['text', 'guardContent', 'cachePoint'], path);
    if (kind === 'cachePoint') return cachePoint(block.cachePoint, `${path}.cachePoint`, scope);
    const part = kind === 'text' ? systemText(block.text, `${path}.text`, path) : guardContent(block.guardContent, `${path}.guardContent`);
    if (part) parts.push(part);
  });
  return parts.length > 0 ? { role: 'system', parts } : null;
}

function systemText(value: unknown, at: string, path: string): Part {
  const text = expectString(value, at);
  if (text.trim() === '')
    fail(at, `The text field in the SystemContentBlock object at ${path} is blank. Add text to the text field, and try again.`);
  return { type: 'text', text };
}
