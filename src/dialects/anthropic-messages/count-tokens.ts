// `POST /v1/messages/count_tokens`: a Messages body without `max_tokens` (and the other members
// that shape only the answer) → `{"input_tokens":n}`, decoded by the Messages decoder and counted
// as the usage of a Messages answer is. An info route: no script, nothing consumed or journalled.

import { isNeutralError, type NeutralError } from '../../core/errors.js';
import { countInputTokens } from '../../core/tokens.js';
import type { EncodedBody, InfoAsk, InfoRouteSpec, WireContext } from '../dialect.js';
import { infoBody, UnparsedBody } from '../wire-kit/info-json.js';
import { isObject } from '../wire-kit/values.js';
import { refusalOr, reject } from '../wire-kit/wire-error.js';
import { apiVersion, VERSION_2026 } from './api-version.js';
import { decodeMessagesBody } from './decode-request.js';
import { MAX_OUTPUT_TOKENS } from './decode-options.js';
import { anthropicMessages } from './index.js';
import { unknownAnthropicModel } from './catalogue.js';
import { expectLength, expectString, fail, requiredMember } from './wording.js';

/** The members MessageCountTokensParams has; any other (max_tokens, stream, temperature…) is an
 * extra input, as on messages.create for a member it does not know. */
const COUNT_FIELDS = new Set([
  'model',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'cache_control',
  'speed',
  'user_profile_id',
  'workspace_id',
]);

const MODEL_LENGTH = { min: 1 };
const NO_QUERY = new URLSearchParams();

function wireOf(ask: InfoAsk): WireContext {
  return { operation: 'anthropic.countTokens', params: {}, query: NO_QUERY, headers: ask.headers ?? {}, state: ask.state };
}

/** The input tokens of a count_tokens body, or Anthropic's refusal of it. */
export function countMessageTokens(ask: InfoAsk): number | NeutralError {
  const body = infoBody(ask);
  if (body instanceof UnparsedBody) return body.error;
  return refusalOr(() => {
    const v2026 = apiVersion(wireOf(ask)) === VERSION_2026;
    if (!isObject(body)) fail('', 'The request body must be a JSON object');
    const model = expectLength(expectString(requiredMember(body, 'model', ''), 'model'), 'model', MODEL_LENGTH);
    for (const key in body) if (!COUNT_FIELDS.has(key)) fail(key, 'Extra inputs are not permitted');
    const unknown = unknownAnthropicModel(ask.state, model);
    if (unknown) reject(unknown);
    // No answer is made, so there is no output budget: the largest one, which every thinking budget fits under.
    return countInputTokens(decodeMessagesBody({ ...body, max_tokens: MAX_OUTPUT_TOKENS }, model, v2026));
  });
}

function answer(ask: InfoAsk): EncodedBody {
  const requestId = ask.requestId ?? '';
  const counted = countMessageTokens(ask);
  if (isNeutralError(counted)) return anthropicMessages.encodeError(counted, { requestId });
  return {
    status: 200,
    headers: { 'content-type': 'application/json', 'request-id': requestId },
    body: `{"input_tokens":${counted}}`,
  };
}

/** The count_tokens routes (and under `/anthropic`, as the Messages routes). */
export const ANTHROPIC_COUNT_TOKENS_ROUTES: InfoRouteSpec[] = ['', '/anthropic'].map((prefix) => ({
  method: 'POST' as const,
  path: `${prefix}/v1/messages/count_tokens`,
  dialect: anthropicMessages,
  answer,
}));
