// Answers for requests no script matches, in `auto` fallback: call the first declared tool with
// `{}`; once a tool result follows the latest user message, or without tools, a fixed sentence.

import { recentToolResults } from '../core/conversation.js';
import type { ChatRequest, Reply } from '../core/model.js';

export const ZERO_CONFIG_TEXT = 'This is a scripted answer from Understudy.';

export function zeroConfigReply(request: ChatRequest): Reply {
  const toolsAllowed = request.tools.length > 0 && request.toolChoice.type !== 'none';
  if (toolsAllowed && recentToolResults(request).length === 0) {
    const name = request.toolChoice.type === 'named' ? request.toolChoice.name : request.tools[0].name;
    return { toolCalls: [{ name, arguments: {} }] };
  }
  if (request.output.type === 'json_object' || request.output.type === 'json_schema') return { json: {} };
  return { text: ZERO_CONFIG_TEXT };
}
