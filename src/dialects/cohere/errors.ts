// Cohere's error body: {"id":"…","message":"…"}, with the HTTP status the SDK picks its error
// class by (400 BadRequestError, 401 UnauthorizedError, 404 NotFoundError, 422
// UnprocessableEntityError, 429 TooManyRequestsError, 498 InvalidTokenError, 499
// ClientClosedRequestError, 500 InternalServerError …). Understudy's own refusals (409) add their
// code as `code`, which the SDK keeps in the error's body; wire validation errors have none.

import type { NeutralError } from '../../core/errors.js';
import type { EncodedBody } from '../dialect.js';

function codeMember(error: NeutralError): string {
  if (!error.code || error.kind === 'invalid_request') return '';
  return `,"code":${JSON.stringify(error.code)}`;
}

export function cohereErrorJson(error: NeutralError, id: string): string {
  return `{"id":${JSON.stringify(id)},"message":${JSON.stringify(error.message)}${codeMember(error)}}`;
}

export function encodeCohereError(error: NeutralError, ctx: { requestId: string }): EncodedBody {
  return {
    status: error.status,
    headers: { 'content-type': 'application/json', ...(error.headers ?? {}) },
    body: cohereErrorJson(error, ctx.requestId),
  };
}
