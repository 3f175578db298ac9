// Bedrock's errors (the restJson1 protocol): the HTTP status, the error's name in the
// `x-amzn-errortype` header (`Name:namespace`; the AWS client takes the part before the colon and
// throws the exception class of that name), and a body `{"message":"…"}`. Inside an event stream
// the same error is an exception frame named by its camelCase member (event-stream.ts).

import type { NeutralError } from '../../core/errors.js';
import type { EncodedBody } from '../dialect.js';
import { exceptionFrame } from './event-stream.js';

const NAMESPACE = 'http://internal.amazon.com/coral/com.amazon.bedrock/';

const BY_STATUS: Record<number, string> = {
  400: 'ValidationException',
  401: 'UnrecognizedClientException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  405: 'UnknownOperationException',
  408: 'ModelTimeoutException',
  409: 'ConflictException',
  413: 'ValidationException',
  415: 'ValidationException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

/** A name the script gave (`type`, e.g. `ServiceQuotaExceededException`), else the status's. */
export function bedrockErrorName(error: NeutralError): string {
  if (error.type !== undefined && /^[A-Z][A-Za-z]*Exception$/.test(error.type)) return error.type;
  return BY_STATUS[error.status] ?? (error.status >= 500 ? 'InternalServerException' : 'ValidationException');
}

/** Members besides `message`: Understudy's own code on its refusals (a 409's `no_match`…), so a
 * test can tell them apart; a provider's validation errors carry none. */
function bodyOf(error: NeutralError): string {
  const code = error.code && error.kind !== 'invalid_request' ? `,"code":${JSON.stringify(error.code)}` : '';
  const extra = error.extra ? Object.entries(error.extra).map(([key, value]) => `,${JSON.stringify(key)}:${JSON.stringify(value)}`) : [];
  return `{"message":${JSON.stringify(error.message)}${code}${extra.join('')}}`;
}

export function encodeBedrockError(error: NeutralError, ctx: { requestId: string }): EncodedBody {
  return {
    status: error.status,
    headers: {
      'content-type': 'application/json',
      'x-amzn-errortype': `${bedrockErrorName(error)}:${NAMESPACE}`,
      'x-amzn-requestid': ctx.requestId,
      ...(error.headers ?? {}),
    },
    body: bodyOf(error),
  };
}

/** The exception members an event-stream operation declares, by the error's status: the AWS
 * client throws the matching class; a member it does not declare would be dropped unseen. */
const STREAM_MEMBER_BY_STATUS: Record<number, string> = {
  400: 'validationException',
  424: 'modelStreamErrorException',
  429: 'throttlingException',
  500: 'internalServerException',
  503: 'serviceUnavailableException',
};

const STREAM_MEMBERS = new Set(Object.values(STREAM_MEMBER_BY_STATUS));

/** The error as an exception frame inside a stream. */
export function bedrockExceptionFrame(error: NeutralError): string {
  const named = bedrockErrorName(error);
  const member = named.charAt(0).toLowerCase() + named.slice(1);
  const chosen = STREAM_MEMBERS.has(member)
    ? member
    : (STREAM_MEMBER_BY_STATUS[error.status] ?? (error.status >= 500 ? 'internalServerException' : 'modelStreamErrorException'));
  return exceptionFrame(chosen, error.message);
}
