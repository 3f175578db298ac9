// Checks a Messages API request (its `anthropic-version` header and JSON body) the way Anthropic
// does — the API's own messages where they are known, its `path: problem` style otherwise — and
// decodes it into the neutral ChatRequest: `system` becomes a leading system message, then the
// messages (decode-messages.ts); tools, options and `cache_control` markers each have a module of
// their own (prompt caching is reported as marked when any marker was sent).

import { isNeutralError, type NeutralError } from '../../core/errors.js';
import type { ChatRequest } from '../../core/model.js';
import type { WireContext } from '../dialect.js';
import { given, isObject } from '../wire-kit/values.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import { apiVersion, VERSION_2026 } from './api-version.js';
import { cacheControl, cacheControlSeen, resetCacheControl } from './cache-control.js';
import { unknownAnthropicModel } from './catalogue.js';
import { decodeMessages, decodeSystem, type Scope } from './decode-messages.js';
import {
  checkMetadata,
  checkStopSequences,
  decodeBetaOptions,
  decodeMaxTokens,
  decodeOutput,
  decodeSampling,
  decodeThinking,
} from './decode-options.js';
import { decodeToolChoice, decodeTools } from './decode-tools.js';
import { expectArray, expectBoolean, expectEnum, expectLength, expectString, fail, requiredMember } from './wording.js';

/** The request members of the Messages API (and its betas, as the SDKs type them); any other is an
 * extra input the API does not permit. */
const REQUEST_FIELDS = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'metadata',
  'stop_sequences',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'output_format',
  'service_tier',
  'cache_control',
  'container',
  'context_management',
  'mcp_servers',
  'inference_geo',
  'speed',
  'diagnostics',
  'compaction',
  'thread',
  'fallbacks',
  'fallback_credit_token',
  'billing_policy',
  'user_profile_id',
  'workspace_id',
]);
export function decodeMessagesRequest(body: unknown, wire: WireContext): ChatRequest | NeutralError {
  const decoded = refusalOr(() => decodeRequest(body, wire));
  // After the body's checks, as OpenAI's catalogue refusal: a session with `models` has only those.
  return isNeutralError(decoded) ? decoded : (unknownAnthropicModel(wire.state, decoded.model) ?? decoded);
}

const MODEL_LENGTH = { min: 1 };

function decodeRequest(body: unknown, wire: WireContext): ChatRequest {
  const v2026 = apiVersion(wire) === VERSION_2026;
  if (!isObject(body)) fail('', 'The request body must be a JSON object');
  const model = expectLength(expectString(requiredMember(body, 'model', ''), 'model'), 'model', MODEL_LENGTH);
  for (const key in body) if (!REQUEST_FIELDS.has(key)) fail(key, 'Extra inputs are not permitted');
  return decodeMessagesBody(body, model, v2026);
}

/** The members of a Messages body after `model`, for a host that names the model elsewhere and
 * has checked which members the body may carry (Bedrock's InvokeModel: the model in the path).
 * Throws the refusal (a WireError) in Anthropic's words. */
export function decodeMessagesBody(body: Record<string, unknown>, model: string, v2026: boolean): ChatRequest {
  resetCacheControl();
  const maxTokens = decodeMaxTokens(body, model);
  const scope: Scope = { v2026, callNames: new Map() };
  const messages = decodeMessages(body.messages, scope);
  const system = decodeSystem(body.system);
  const tools = decodeTools(body.tools);
  if (given(body.mcp_servers) && expectArray(body.mcp_servers, 'mcp_servers').length > 0) {
    fail('mcp_servers', 'Understudy does not support MCP servers (server-side tools); declare custom tools instead');
  }
  const { choice, parallel } = decodeToolChoice(body.tool_choice, tools);
  const thinking = decodeThinking(body.thinking, maxTokens);
  if (thinking && (choice.type === 'required' || choice.type === 'named')) {
    fail('', 'Thinking may not be enabled when tool_choice forces tool use.');
  }
  const output = decodeOutput(body);
  decodeSampling(body, v2026);
  checkStopSequences(body.stop_sequences);
  const stream = given(body.stream) ? expectBoolean(body.stream, 'stream') : false;
  checkMetadata(body.metadata);
  if (given(body.service_tier)) expectEnum(body.service_tier, ['auto', 'standard_only'], 'service_tier');
  decodeBetaOptions(body);
  cacheControl(body.cache_control, 'cache_control');
  return {
    model,
    messages: system ? [system, ...messages] : messages,
    tools,
    toolChoice: choice,
    parallelToolCalls: parallel,
    output,
    stream,
    // Anthropic streams always end with usage.
    streamUsage: stream,
    maxOutputTokens: maxTokens,
    // Anthropic caches only where the request asks with cache_control.
    promptCaching: cacheControlSeen() ? 'marked' : 'none',
  };
}
