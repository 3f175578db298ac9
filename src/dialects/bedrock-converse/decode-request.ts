// Checks a Converse / ConverseStream request as Bedrock does — every member against the API's
// model (an unknown one is refused, naming it), with its ranges — and decodes it into the neutral
// ChatRequest: `system` becomes a leading system message, then the messages (decode-messages.ts);
// tools, options and cache points have modules of their own. The model id comes from the path;
// whether it streams, from the route. CountTokens' `input.converse` is read by the same code.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest, Message, ToolChoice, ToolDefinition } from '../../core/model.js';
import { countInputTokens } from '../../core/tokens.js';
import type { WireContext } from '../dialect.js';
import { given, isObject } from '../wire-kit/values.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import { modelIdOf } from '../bedrock/model-routes.js';
import { expectObject, fail, onlyMembers, requiredMember } from '../bedrock/wording.js';
import { decodeMessages, decodeSystem } from './decode-messages.js';
import { checkIgnoredMembers, decodeInferenceConfig, decodeOutputConfig } from './decode-options.js';
import { newScope } from './decode-scope.js';
import { decodeToolConfig } from './decode-tools.js';
import { CONVERSE_STREAM } from './operations.js';

/** The request members of Converse and ConverseStream (the model id travels in the path). */
const REQUEST_MEMBERS = new Set([
  'messages',
  'system',
  'inferenceConfig',
  'toolConfig',
  'guardrailConfig',
  'additionalModelRequestFields',
  'promptVariables',
  'additionalModelResponseFieldPaths',
  'requestMetadata',
  'performanceConfig',
  'serviceTier',
  'outputConfig',
]);

/** The members of CountTokens' `input.converse`. */
const COUNT_MEMBERS = new Set(['messages', 'system', 'toolConfig', 'additionalModelRequestFields']);

interface Conversation {
  messages: Message[];
  tools: ToolDefinition[];
  choice: ToolChoice;
  cachePoint: boolean;
}

/** The conversation, tools and cache points of a body (a request's, or a CountTokens input's). */
function decodeConversation(body: Record<string, unknown>): Conversation {
  const scope = newScope(given(body.toolConfig));
  const { tools, choice } = decodeToolConfig(body.toolConfig, scope);
  const system = decodeSystem(body.system, scope);
  const messages = decodeMessages(requiredMember(body, 'messages', ''), scope);
  return { messages: system ? [system, ...messages] : messages, tools, choice, cachePoint: scope.cachePoint };
}

export function decodeConverseRequest(body: unknown, wire: WireContext): ChatRequest | NeutralError {
  return refusalOr(() => decodeRequest(body, wire));
}

function decodeRequest(body: unknown, wire: WireContext): ChatRequest {
  const model = modelIdOf(wire);
  if (!isObject(body)) fail('', 'The request body must be a JSON object.');
  onlyMembers(body, REQUEST_MEMBERS, '');
  const stream = wire.operation === CONVERSE_STREAM;
  const conversation = decodeConversation(body);
  const { maxTokens } = decodeInferenceConfig(body.inferenceConfig);
  const output = decodeOutputConfig(body.outputConfig);
  checkIgnoredMembers(body, stream);
  return {
    model,
    messages: conversation.messages,
    tools: conversation.tools,
    toolChoice: conversation.choice,
    parallelToolCalls: true,
    output,
    stream,
    // ConverseStream always ends with a metadata event carrying the usage.
    streamUsage: stream,
    maxOutputTokens: maxTokens,
    // Bedrock caches only up to the cachePoint blocks a request sends.
    promptCaching: conversation.cachePoint ? 'marked' : 'none',
  };
}

/** CountTokens' `input.converse`: the input tokens a Converse request of that input is reported. */
export function countConverseTokens(input: Record<string, unknown>, path: string, modelId: string): number {
  onlyMembers(input, COUNT_MEMBERS, path);
  if (given(input.additionalModelRequestFields)) expectObject(input.additionalModelRequestFields, `${path}.additionalModelRequestFields`);
  const conversation = decodeConversation(input);
  return countInputTokens({
    model: modelId,
    messages: conversation.messages,
    tools: conversation.tools,
    toolChoice: conversation.choice,
    parallelToolCalls: true,
    output: { type: 'text' },
    stream: false,
    streamUsage: false,
  });
}
