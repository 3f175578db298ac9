// Neutral error kinds. Each dialect turns one into its provider's own status, body and headers.

import type { JsonValue } from './model.js';

export type ErrorKind =
  | 'invalid_request'
  | 'unauthorized'
  | 'not_found'
  | 'method_not_allowed'
  | 'too_large'
  | 'unsupported_media_type'
  | 'no_match'
  | 'exhausted'
  | 'mismatch'
  | 'superseded'
  | 'scripted'
  | 'content_filter'
  /** A bounded store is full (a session's video jobs). */
  | 'capacity'
  | 'internal';

export interface NeutralError {
  kind: ErrorKind;
  status: number;
  /** Machine-readable code: the provider's own for wire errors, ours (no_match, fixture_mismatch…) otherwise. */
  code: string | null;
  message: string;
  /** The request field at fault, when there is one. */
  param?: string | null;
  /** Provider error type, when a script names one. */
  type?: string;
  headers?: Record<string, string>;
  /** A scripted failure to deliver inside a stream rather than as an HTTP status. */
  inStream?: boolean;
  /** Members a script adds to the provider's error object (ScriptedError.extra). */
  extra?: Record<string, JsonValue>;
}

export function invalidRequest(message: string, param: string | null = null, code: string | null = null): NeutralError {
  return { kind: 'invalid_request', status: 400, code, message, param };
}

/** Understudy's own refusals: never worth a retry, so they say so to the SDKs that listen. */
export function understudyConflict(
  kind: 'no_match' | 'exhausted' | 'mismatch' | 'superseded',
  code: string,
  message: string,
): NeutralError {
  return { kind, status: 409, code, message, headers: { 'x-should-retry': 'false' } };
}

export function isNeutralError(value: unknown): value is NeutralError {
  return typeof value === 'object' && value !== null && 'kind' in value && 'status' in value && 'message' in value;
}
