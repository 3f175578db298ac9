// OpenAI's error body, on every OpenAI-shaped route: {"error":{"message","type","param","code"}}.

import type { NeutralError } from '../../core/errors.js';
import type { EncodedBody } from '../dialect.js';

/** What a family member calls an error's `type` by its status: 401 and 429, 5xx, and the rest. */
export interface ErrorTypeNames {
  unauthorized?: string;
  rateLimited: string;
  server: string;
  otherwise: string;
}

/** An error's `type` in an OpenAI-family body: the script's, `understudy_error` for Understudy's
 * own refusals, else the name the body's provider gives its status. */
export function errorTypeOf(error: NeutralError, names: ErrorTypeNames): string {
  if (error.type) return error.type;
  switch (error.kind) {
    case 'no_match':
    case 'exhausted':
    case 'mismatch':
    case 'superseded':
      return 'understudy_error';
    default:
      break;
  }
  if (error.status === 401 && names.unauthorized) return names.unauthorized;
  if (error.status === 429) return names.rateLimited;
  if (error.status >= 500) return names.server;
  return names.otherwise;
}

const OPENAI_TYPES: ErrorTypeNames = { rateLimited: 'requests', server: 'server_error', otherwise: 'invalid_request_error' };

/** What OpenAI sends with a 429 besides retry-after (a script's own headers win). */
const OPENAI_RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit-requests': '500',
  'x-ratelimit-remaining-requests': '0',
  'x-ratelimit-reset-requests': '120ms',
  'x-ratelimit-limit-tokens': '30000',
  'x-ratelimit-remaining-tokens': '0',
  'x-ratelimit-reset-tokens': '120ms',
};

/** The error object with the members a script added (ScriptedError.extra); its own members win. */
export function withExtra(members: Record<string, unknown>, error: NeutralError): Record<string, unknown> {
  if (error.extra) for (const key in error.extra) if (!Object.hasOwn(members, key)) members[key] = error.extra[key];
  return members;
}

export function encodeOpenAIError(error: NeutralError): EncodedBody {
  return {
    status: error.status,
    headers: { 'content-type': 'application/json', ...(error.status === 429 ? OPENAI_RATE_LIMIT_HEADERS : {}), ...(error.headers ?? {}) },
    body: JSON.stringify({
      error: withExtra(
        { message: error.message, type: errorTypeOf(error, OPENAI_TYPES), param: error.param ?? null, code: error.code ?? null },
        error,
      ),
    }),
  };
}
