// What Understudy refuses on InvokeModel although a model may take it: tools (and a history of tool
// calls and results). Tool support is claimed on Converse only, where Bedrock's own tool schema is
// checked and answered (docs/dialects/bedrock-invoke.md says why).

import type { ChatRequest } from '../../core/model.js';
import { refuse } from './wording.js';

const USE_CONVERSE = 'Understudy answers tools on Converse and ConverseStream only (POST /model/{modelId}/converse)';

/** Refuses a tool option the body sent, naming its member. */
export function refuseToolOption(member: string): never {
  refuse(`${member}: tool use is not supported on InvokeModel by Understudy. ${USE_CONVERSE}.`, member);
}

/** Refuses a history that holds tool calls or tool results (they only mean something with tools). */
export function refuseToolHistory(request: ChatRequest): void {
  for (const message of request.messages) {
    for (const part of message.parts) {
      if (part.type === 'tool_call' || part.type === 'tool_result') {
        refuse(`messages: tool_use and tool_result content is not supported on InvokeModel by Understudy. ${USE_CONVERSE}.`, 'messages');
      }
    }
  }
}
