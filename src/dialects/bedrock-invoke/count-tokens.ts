// CountTokens' `{"input":{"invokeModel":{"body":"…"}}}`: the InvokeModel body the request would
// send, decoded as InvokeModel decodes it and its prompt counted as the usage of an answer is.

import { invalidRequest, isNeutralError, type NeutralError } from '../../core/errors.js';
import { countInputTokens } from '../../core/tokens.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import { decodeInvokeBody } from './decode-request.js';

/** The prompt tokens of an InvokeModel body for `modelId`, or the ValidationException it would get. */
export function invokeBodyInputTokens(modelId: string, bodyText: string): number | NeutralError {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return invalidRequest('Malformed input request: the body is not valid JSON, please reformat your input and try again.', 'body');
  }
  const request = refusalOr(() => decodeInvokeBody(body, modelId, false));
  return isNeutralError(request) ? request : countInputTokens(request);
}
