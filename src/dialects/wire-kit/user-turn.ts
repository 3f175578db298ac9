// A user turn whose content mixes tool results with other blocks (Anthropic's tool_result blocks,
// Bedrock's toolResult blocks), as neutral messages: each tool result its own `tool` message, the
// other parts `user` messages, in their order.

import type { Message, Part } from '../../core/model.js';

export function pushUserTurn(parts: Part[], out: Message[]): void {
  let pending: Part[] = [];
  let pushed = false;
  for (const part of parts) {
    if (part.type !== 'tool_result') {
      pending.push(part);
      continue;
    }
    if (pending.length > 0) out.push({ role: 'user', parts: pending });
    pending = [];
    out.push({ role: 'tool', parts: [part] });
    pushed = true;
  }
  if (pending.length > 0 || !pushed) out.push({ role: 'user', parts: pending });
}
