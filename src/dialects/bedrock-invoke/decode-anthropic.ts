// The Anthropic Messages body on Bedrock (`anthropic_version: "bedrock-2023-05-31"`): Bedrock checks
// its members against the model's request schema (no `model`, no `stream`, no `output_config`: the
// path names the model, the operation says whether to stream), then the model reads the rest as a
// Messages body, which the Anthropic dialect's decoder checks in Anthropic's own words.

import type { ChatRequest } from '../../core/model.js';
import { decodeMessagesBody } from '../anthropic-messages/decode-request.js';
import { refuseToolHistory, refuseToolOption } from './refusals.js';
import { reject, WireError } from '../wire-kit/wire-error.js';
import { expectArray, expectEnum, expectString, MALFORMED, onlyMembers, requiredMember } from './wording.js';

const BEDROCK_VERSION = 'bedrock-2023-05-31';

/** The members Bedrock's schema for Anthropic Claude takes at the top of the body. */
const MEMBERS: ReadonlySet<string> = new Set([
  'anthropic_version',
  'anthropic_beta',
  'max_tokens',
  'system',
  'messages',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'thinking',
  'tools',
  'tool_choice',
]);

/** What Bedrock's schema checks before the model reads the body. */
function checkBedrockMembers(body: Record<string, unknown>): void {
  onlyMembers(body, MEMBERS, '#');
  expectEnum(requiredMember(body, 'anthropic_version', '#'), [BEDROCK_VERSION], '#/anthropic_version');
  if (body.anthropic_beta !== undefined) {
    expectArray(body.anthropic_beta, '#/anthropic_beta').forEach((beta, i) => expectString(beta, `#/anthropic_beta/${i}`));
  }
  requiredMember(body, 'max_tokens', '#');
  requiredMember(body, 'messages', '#');
}

/** Claude's schema on Bedrock is one of two (the Text Completions body, which must not have
 * `messages`, or the Messages body), so a Messages body it refuses is first said to fail the other. */
const NOT_TEXT_COMPLETIONS = '#: subject must not be valid against schema {"required":["messages"]}';

export function decodeAnthropicBody(body: Record<string, unknown>, modelId: string): ChatRequest {
  try {
    checkBedrockMembers(body);
  } catch (error) {
    if (error instanceof WireError && body.messages !== undefined) {
      reject({ ...error.neutral, message: error.neutral.message.replace(MALFORMED, MALFORMED + NOT_TEXT_COMPLETIONS) });
    }
    throw error;
  }
  if (body.tools !== undefined) refuseToolOption('tools');
  if (body.tool_choice !== undefined) refuseToolOption('tool_choice');
  // The Messages decoder reads only the members it knows, so Bedrock's own two pass through unread.
  const request = decodeMessagesBody(body, modelId, false);
  refuseToolHistory(request);
  return request;
}
