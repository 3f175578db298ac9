// A v2 reply's reasoning is its `tool_plan` when it calls tools (../cohere/tool-plan.ts), a
// `thinking` content item when it does not.

import type { ResolvedReply } from '../../core/model.js';

export { toolPlan } from '../cohere/tool-plan.js';

/** Reasoning that is no tool plan: a `thinking` content item. */
export function thinkingText(reply: ResolvedReply): string | null {
  return reply.toolCalls.length === 0 ? reply.reasoning : null;
}
