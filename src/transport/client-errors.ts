// Requests Node's HTTP parser refuses before any handler runs (bad chunk framing, Content-Length
// with Transfer-Encoding, an oversized header block, a request that took too long to arrive) are
// answered here in the shape of the provider whose path the request named, not with Node's
// empty-bodied default. The route comes from the request line when the parser still has it, or
// from the request in flight on the socket when the failure came in its body.

import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { NeutralError } from '../core/errors.js';
import type { ChatDialect } from '../dialects/dialect.js';

/** What the parser tells about a failure, as node:http passes it to 'clientError'. */
export interface ParserError extends Error {
  code?: string;
  rawPacket?: Buffer;
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** The neutral error for a parser failure, or undefined when nothing should be answered. */
export function parserFailure(error: ParserError): NeutralError | undefined {
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return undefined;
    case 'HPE_HEADER_OVERFLOW':
      return {
        kind: 'invalid_request',
        status: 431,
        code: 'request_header_fields_too_large',
        message: 'The request headers are too large: send less than 16 KB of headers.',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        kind: 'invalid_request',
        status: 408,
        code: 'request_timeout',
        message: 'The request did not arrive in time: the server stopped waiting for its headers or body.',
      };
    default:
      return {
        kind: 'invalid_request',
        status: 400,
        code: 'malformed_http_request',
        message: `The HTTP request is malformed and could not be read (${describe(error)}).`,
      };
  }
}

const DESCRIPTIONS: Record<string, string> = {
  HPE_INVALID_CHUNK_SIZE: 'invalid chunk size in a chunked body',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length sent twice, or together with Transfer-Encoding',
  HPE_INVALID_CONTENT_LENGTH: 'invalid Content-Length',
  HPE_INVALID_TRANSFER_ENCODING: 'invalid Transfer-Encoding',
  HPE_INVALID_METHOD: 'invalid method',
  HPE_INVALID_URL: 'invalid request target',
  HPE_INVALID_VERSION: 'invalid HTTP version',
  HPE_INVALID_HEADER_TOKEN: 'invalid character in a header name',
  HPE_INVALID_CONSTANT: 'invalid request line',
  HPE_LF_EXPECTED: 'line feed expected',
  HPE_CR_EXPECTED: 'carriage return expected',
};

function describe(error: ParserError): string {
  return (error.code && DESCRIPTIONS[error.code]) ?? error.code ?? error.message;
}

/** The request path the failure belongs to, if it can be told. */
export function failedRequestPath(error: ParserError, socket: Socket): string | undefined {
  const line = error.rawPacket?.subarray(0, 8192).toString('latin1');
  const target = line && /^[A-Z]{3,10} (\S+) HTTP\//.exec(line)?.[1];
  if (target) return target.split('?')[0];
  // A failure inside a body: node:http keeps the response of the request in flight on its socket.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  return inFlight?.req?.url?.split('?')[0];
}

/** Writes the error as a whole HTTP/1.1 response and closes the connection. */
export function answerParserFailure(
  socket: Socket,
  dialect: Pick<ChatDialect, 'encodeError'>,
  error: NeutralError,
  requestId: string,
): void {
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const encoded = dialect.encodeError(error, { requestId });
  const body = Buffer.from(encoded.body);
  const headers: Record<string, string> = { ...encoded.headers, 'x-request-id': requestId };
  let head = `HTTP/1.1 ${encoded.status} ${REASONS[encoded.status] ?? 'Error'}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  head += `content-length: ${body.length}\r\nconnection: close\r\n\r\n`;
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
}
