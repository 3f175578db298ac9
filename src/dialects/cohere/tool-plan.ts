// What a Cohere turn that calls tools says before its calls (v2's `tool_plan`, v1's text of the
// turn): the reply's reasoning when the script gave it, a fixed sentence naming the tools in a
// zero-config answer, else nothing.

import type { ResolvedReply } from '../../core/model.js';

export function toolPlan(reply: ResolvedReply): string | null {
  if (reply.toolCalls.length === 0) return null;
  if (reply.reasoning !== null) return reply.reasoning;
  if (!reply.wholeToolCalls) return null;
  return `I will call ${[...new Set(reply.toolCalls.map((c) => c.name))].join(' and ')}.`;
}
