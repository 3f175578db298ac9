// What Azure's service in front of the model answers itself, before the model sees a request: the
// `api-version` rules of each route family, and its own error body `{"error":{"code","message"}}`
// (no `type`, no `param`), which it also sends for unknown paths and refused keys. Errors from the
// model's own checks keep OpenAI's shape, as Azure passes them through.

import type { NeutralError } from '../../core/errors.js';
import type { EncodedBody, WireContext } from '../dialect.js';
import { encodeOpenAIError } from '../openai/encode-error.js';
import { contentFilterErrorBody } from './azure-content-filter.js';

/** Marks an error as the service's own (encodeAzureError sends it in the service's shape). */
const SERVICE = 'azure_service';

function serviceError(status: 400 | 404, code: string, message: string): NeutralError {
  return { kind: status === 404 ? 'not_found' : 'invalid_request', status, code, message, param: null, type: SERVICE };
}

/** A 400 of the service's own (a request it refuses before the model sees it). */
export function azureBadRequest(message: string): NeutralError {
  return serviceError(400, 'BadRequest', message);
}

const NOT_FOUND = (): NeutralError => serviceError(404, '404', 'Resource not found');
const UNSUPPORTED = (): NeutralError => serviceError(400, 'BadRequest', 'API version not supported');

/** A route family's rule for `?api-version=`: the error to answer, or undefined to go on. */
export type VersionRule = (wire: WireContext) => NeutralError | undefined;

/** Deployment routes (`/openai/deployments/{d}/…`, `/openai/responses`): one of the dated versions
 * is required; none at all is Azure's 404, an unknown one its 400. */
export function datedVersion(accepted: readonly string[]): VersionRule {
  return (wire) => {
    const version = wire.query.get('api-version');
    if (version === null) return NOT_FOUND();
    return accepted.includes(version) ? undefined : UNSUPPORTED();
  };
}

/** The v1 routes (`/openai/v1/…`) take no dated version: none, `v1` (what the Vercel AI SDK sends
 * to Azure's own hosts) or `preview`. */
export const v1Version: VersionRule = (wire) => {
  const version = wire.query.get('api-version');
  return version === null || version === 'v1' || version === 'preview' ? undefined : UNSUPPORTED();
};

/** Foundry's model inference route answers only its one version; any other, or none, is its 404. */
export function onlyVersion(accepted: string): VersionRule {
  return (wire) => (wire.query.get('api-version') === accepted ? undefined : NOT_FOUND());
}

/** Azure's error body: the service's own errors (version, path, key) as `{code, message}`, a
 * prompt its content filter blocked with the filter's verdict, the rest as OpenAI's. */
export function encodeAzureError(error: NeutralError): EncodedBody {
  if (error.kind === 'content_filter' || (error.status === 400 && error.code === 'content_filter')) {
    return {
      status: 400,
      headers: { 'content-type': 'application/json', ...(error.headers ?? {}) },
      body: JSON.stringify(contentFilterErrorBody(error.message)),
    };
  }
  const own = error.type === SERVICE || error.kind === 'not_found' || error.kind === 'unauthorized';
  if (!own) return encodeOpenAIError(error);
  const code = error.type === SERVICE && error.code !== null ? error.code : String(error.status);
  return {
    status: error.status,
    headers: { 'content-type': 'application/json', ...(error.headers ?? {}) },
    body: JSON.stringify({ error: { code, message: error.message } }),
  };
}
