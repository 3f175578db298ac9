// A checked script's preset calls spelled out: `{ preset: weather, id, arguments }` in a reply
// becomes the plain call `{ id, name: weather, arguments }` the engine and the dialects answer with.
// The arguments were checked against the preset when the script was (fixture-rules.ts).
// `preset` in a `when.toolResult` stays: the predicate reads it (predicates.ts).

import type { Reply, ScriptedToolCall } from '../core/model.js';
import type { FixtureInput, FixtureSpec, ReplyInput } from './spec.js';

type CallInput = NonNullable<ReplyInput['toolCalls']>[number];

function plainCall(call: CallInput): ScriptedToolCall {
  if (call.preset === undefined) return call as ScriptedToolCall;
  const { preset, id, arguments: args } = call;
  return { ...(id !== undefined && { id }), name: preset, ...(args !== undefined && { arguments: args }) };
}

function plainReply(reply: ReplyInput): Reply {
  if (!reply.toolCalls?.some((call) => call.preset !== undefined)) return reply as Reply;
  return { ...reply, toolCalls: reply.toolCalls.map(plainCall) } as Reply;
}

/** The fixture with every preset call a plain call (the value is changed in place and returned). */
export function withPlainCalls(fixture: FixtureInput): FixtureSpec {
  for (const scenario of fixture.scenarios) {
    if (scenario.steps) for (const step of scenario.steps) step.reply = plainReply(step.reply);
    if (scenario.replies) scenario.replies = scenario.replies.map(plainReply);
  }
  return fixture as FixtureSpec;
}
