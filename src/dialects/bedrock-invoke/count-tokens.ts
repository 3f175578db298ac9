// CountTokens' `{"input":{"invokeModel":{"body":"…"}}}`: the InvokeModel body the request would
// send, decoded as InvokeModel decodes it and its prompt counted as the usage of an answer is.

import { invalidRequest, isNeutralError, type NeutralError } from '../../core/errors.js';
import { countInputTokens } from '../../core/tokens.js';
import type { InputCounter } from '../bedrock/count-tokens.js';
import { constraint, onlyMembers } from '../bedrock/wording.js';
import { refusalOr, reject } from '../wire-kit/wire-error.js';
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

const INVOKE_INPUT_MEMBERS = new Set(['body']);

/** CountTokens' `input.invokeModel` (`{"body": <the InvokeModel body, base64 as the JSON protocol
 * writes a blob>}`), counted by invokeBodyInputTokens. */
export const countInvokeModelInput: InputCounter = (input, path, modelId) => {
  onlyMembers(input, INVOKE_INPUT_MEMBERS, path);
  const body = input.body;
  if (typeof body !== 'string' || body.length === 0) constraint(`${path}.body`, body, 'Member must be a blob of the InvokeModel body');
  const counted = invokeBodyInputTokens(modelId, Buffer.from(body, 'base64').toString('utf8'));
  if (isNeutralError(counted)) reject(counted);
  return counted;
};
