// Gemini's (and Vertex AI's) error body: {"error":{"code":<http status>,"message":"…","status":"<google.rpc.Code name>",
// "details":[…]}}. The same object is what a stream carries when it fails after it started.

import type { NeutralError } from '../../core/errors.js';
import type { EncodedBody } from '../dialect.js';

const RPC_CODES = new Set([
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'UNAUTHENTICATED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
]);

const BY_HTTP_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'UNIMPLEMENTED',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  415: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** The google.rpc status name for an error: one the script named (as type or code), else the HTTP status's. */
export function rpcStatus(error: NeutralError): string {
  if (error.type !== undefined && RPC_CODES.has(error.type)) return error.type;
  if (error.code !== null && RPC_CODES.has(error.code)) return error.code;
  const mapped = BY_HTTP_STATUS[error.status];
  if (mapped) return mapped;
  if (error.status >= 500) return 'INTERNAL';
  return error.status >= 400 ? 'FAILED_PRECONDITION' : 'UNKNOWN';
}

function retryDelay(headers: Record<string, string> | undefined): string | undefined {
  if (!headers) return undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== 'retry-after') continue;
    const seconds = Number(value);
    if (Number.isFinite(seconds) && seconds >= 0) return `${seconds}s`;
  }
  return undefined;
}

function details(error: NeutralError, status: string): unknown[] | undefined {
  const out: unknown[] = [];
  if (error.kind === 'invalid_request' && error.param) {
    out.push({
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: [{ field: error.param, description: error.message.replace(/^\* GenerateContentRequest\.[^:]*: /, '').trim() }],
    });
  }
  if (error.kind === 'no_match' || error.kind === 'exhausted' || error.kind === 'mismatch' || error.kind === 'superseded') {
    out.push({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: error.code, domain: 'understudy' });
  } else if (error.kind === 'capacity') {
    out.push({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: error.code, domain: 'understudy' });
  } else if (error.kind === 'scripted' && error.code !== null && error.code !== status) {
    out.push({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: error.code, domain: 'generativelanguage.googleapis.com' });
  }
  const delay = retryDelay(error.headers);
  if (delay !== undefined) out.push({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: delay });
  return out.length > 0 ? out : undefined;
}

/** The `{"error":{…}}` object itself. */
export function geminiErrorObject(error: NeutralError): { error: Record<string, unknown> } {
  const status = rpcStatus(error);
  const extra = details(error, status);
  // The server's own JSON-parse failures read the way Google's front end words them.
  const message =
    error.code === 'invalid_json' && !error.message.startsWith('Invalid JSON payload')
      ? `Invalid JSON payload received. ${error.message}`
      : error.message;
  return { error: { code: error.status, message, status, ...(extra && { details: extra }) } };
}

export function encodeGeminiError(error: NeutralError): EncodedBody {
  if (error.kind === 'content_filter') {
    // Gemini does not fail a blocked prompt: it answers 200 with no candidates and the reason.
    return {
      status: 200,
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body: JSON.stringify({ promptFeedback: { blockReason: 'SAFETY', safetyRatings: [] }, modelVersion: 'understudy' }),
    };
  }
  return {
    status: error.status,
    headers: { 'content-type': 'application/json; charset=UTF-8', ...(error.headers ?? {}) },
    body: JSON.stringify(geminiErrorObject(error)),
  };
}
