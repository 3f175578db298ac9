// Anthropic's error body: {"type":"error","error":{"type","message"[,"details"]},"request_id"}, with
// the error type chosen by status (529 is `overloaded_error`) unless a script names one.

import type { NeutralError } from '../../core/errors.js';
import type { EncodedBody } from '../dialect.js';

/** Anthropic's error type for an HTTP status, as the API documents them. */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 409:
      return 'conflict_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 504:
      return 'timeout_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

function typeFor(error: NeutralError): string {
  if (error.type) return error.type;
  if (error.kind === 'internal') return 'api_error';
  return anthropicErrorType(error.status);
}

/** Understudy's own refusals and scripted errors carry their code as `details.error_code`, the
 * field SDK 1.x exposes as `error.errorCode`; wire validation errors have no code, as on the API. */
function detailsFor(error: NeutralError): string {
  if (!error.code || error.kind === 'invalid_request') return '';
  return `,"details":{"error_code":${JSON.stringify(error.code)}}`;
}

/** The `error` object alone, as sent both in bodies and in the stream's `error` event. */
export function anthropicErrorObject(error: NeutralError): string {
  return `{"type":${JSON.stringify(typeFor(error))},"message":${JSON.stringify(error.message)}${detailsFor(error)}}`;
}

export function encodeAnthropicError(error: NeutralError, ctx: { requestId: string }): EncodedBody {
  return {
    status: error.status,
    headers: {
      'content-type': 'application/json',
      'request-id': ctx.requestId,
      ...(error.status === 429 ? ANTHROPIC_RATE_LIMIT_HEADERS : {}),
      ...(error.headers ?? {}),
    },
    body: `{"type":"error","error":${anthropicErrorObject(error)},"request_id":${JSON.stringify(ctx.requestId)}}`,
  };
}

/** What Anthropic sends with a 429 besides retry-after (a script's own headers win). */
const ANTHROPIC_RATE_LIMIT_HEADERS = {
  'anthropic-ratelimit-requests-limit': '50',
  'anthropic-ratelimit-requests-remaining': '0',
  'anthropic-ratelimit-requests-reset': '2026-01-01T00:00:01Z',
};
