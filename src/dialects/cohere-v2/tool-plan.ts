// A reply's `tool_plan`: the text Cohere's models write before they call tools. It is the
// neutral reply's reasoning when the reply calls a tool (a script says it as `reasoning`); a
// zero-config answer that calls a tool says which, in a fixed sentence.

import type { ResolvedReply } from '../../core/model.js';

export function toolPlan(reply: ResolvedReply): string | null {
  if (reply.toolCalls.length === 0) return null;
  if (reply.reasoning !== null) return reply.reasoning;
  if (!reply.wholeToolCalls) return null;
  return `I will call ${[...new Set(reply.toolCalls.map((c) => c.name))].join(' and ')}.`;
}

/** Reasoning that is no tool plan: a `thinking` content item. */
export function thinkingText(reply: ResolvedReply): string | null {
  return reply.toolCalls.length === 0 ? reply.reasoning : null;
}
