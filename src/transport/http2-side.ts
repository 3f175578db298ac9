// The HTTP/2 half of the one port (protocol-split.ts hands it its connections): node:http2's
// compatibility API, so the host's one (req, res) handler serves both protocols. What node:http
// does for HTTP/1.x on its own is done here for HTTP/2: `Host` from `:authority`, the request
// timeout, idle sessions closed, sessions ended on shutdown (docs/security.md "HTTP/2").

import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  constants,
  createServer,
  Http2ServerResponse,
  type Http2Server,
  type Http2ServerRequest,
  type ServerHttp2Session,
} from 'node:http2';
import { invalidRequest, type NeutralError } from '../core/errors.js';

/** node:http2's response, with what the writers use of node:http's meaning what it means there: a
 * subclass, so node:http2 itself is left as it is. `destroyed`, which node:http2's lacks, says the
 * client is gone; `writableFinished`, which node:http2's also reports for a stream its client
 * reset part-way, says the whole answer went out (ended, every write done, not reset before). */
class Http2Response extends Http2ServerResponse {
  /** node:http2's destroys the stream with NO_ERROR, which its clients read as an answer that
   * ended: an answer given up on part-way (an error after the headers, an owner's answer that
   * broke off under --workers) must look broken, as a destroyed HTTP/1.1 connection does. */
  override destroy(): this {
    if (!this.stream.destroyed) this.stream.close(constants.NGHTTP2_INTERNAL_ERROR);
    return this;
  }
}
Object.defineProperties(Http2Response.prototype, {
  destroyed: {
    get(this: Http2ServerResponse): boolean {
      return this.stream.destroyed;
    },
  },
  writableFinished: {
    get(this: Http2ServerResponse): boolean {
      const stream = this.stream;
      // A reset that comes once everything went out (a client that stops at the stream's last
      // event, before its END_STREAM) leaves it delivered, as a socket's buffer handed to the kernel.
      return this.writableEnded && stream.writableFinished && !stream.aborted;
    },
  },
});

export interface Http2SideOptions {
  /** The host's handler, the same one HTTP/1.x requests reach. */
  onRequest(req: IncomingMessage, res: ServerResponse): void;
  /** Answers a request refused before the handler runs, in its route's shape. */
  refuse(req: IncomingMessage, res: ServerResponse, error: NeutralError): void;
  /** Longest wait for a whole request once its headers came (ServerOptions.requestTimeoutMs). */
  requestTimeoutMs: number;
  /** A session with no traffic for this long is closed (GOAWAY), as idle keep-alive connections are. */
  idleTimeoutMs: number;
}

const REQUEST_TIMEOUT: NeutralError = {
  kind: 'invalid_request',
  status: 408,
  code: 'request_timeout',
  message: 'The request did not arrive in time: the server stopped waiting for its body.',
};

const CONNECT_REFUSED: NeutralError = {
  kind: 'method_not_allowed',
  status: 405,
  code: 'method_not_allowed',
  message: 'CONNECT is not served: Understudy is not a proxy.',
};

export class Http2Side {
  readonly server: Http2Server;
  private readonly sessions = new Set<ServerHttp2Session>();

  constructor(private readonly options: Http2SideOptions) {
    this.server = createServer({ Http2ServerResponse: Http2Response });
    this.server.on('request', (req, res) => this.request(req, res));
    this.server.on('session', (session) => {
      this.sessions.add(session);
      session.once('close', () => this.sessions.delete(session));
      // A client that drops its connection (the AWS client destroys its session on an abort) ends
      // the socket; node:http2 then only marks the session closed and lets its streams go on
      // writing into a connection nobody reads. Ended, it is gone, as an HTTP/1.1 socket is.
      session.socket.once('end', () => session.destroy());
      session.setTimeout(options.idleTimeoutMs, () => session.close());
    });
  }

  private request(h2req: Http2ServerRequest, h2res: Http2ServerResponse): void {
    // The compatibility API gives the same surface as node:http's request and response.
    const req = h2req as unknown as IncomingMessage;
    const res = h2res as unknown as ServerResponse;
    const headers = h2req.headers;
    const authority = headers[':authority'];
    if (headers.host === undefined) {
      if (authority !== undefined) headers.host = authority;
    } else if (authority !== undefined && headers.host !== authority) {
      // RFC 9113 §8.3.1: a Host that names another authority makes the request malformed.
      h2req.resume();
      this.options.refuse(
        req,
        res,
        invalidRequest(`Host "${headers.host}" differs from :authority "${authority}".`, null, 'host_mismatch'),
      );
      return;
    }
    if (h2req.method === 'CONNECT') {
      h2req.resume();
      this.options.refuse(req, res, CONNECT_REFUSED);
      return;
    }
    if (!h2req.stream.endAfterHeaders) this.limitBody(h2req, h2res);
    this.options.onRequest(req, res);
  }

  /** node:http's requestTimeout, for a body that comes after its headers. */
  private limitBody(req: Http2ServerRequest, res: Http2ServerResponse): void {
    const timer = setTimeout(() => {
      res.off('close', clear);
      if (req.readableEnded) return;
      // Once the 408 is out, the client is asked to stop sending (RFC 9113 §8.1: RST_STREAM
      // NO_ERROR after a complete response); closed at once, the reset would overtake the answer.
      res.stream.once('finish', () => res.stream.close(constants.NGHTTP2_NO_ERROR));
      this.options.refuse(req as unknown as IncomingMessage, res as unknown as ServerResponse, REQUEST_TIMEOUT);
      // The body's reader learns that it will not come (body.ts answers nothing more).
      if (req.listenerCount('error') === 0) req.on('error', () => {});
      req.destroy(new Error('request timeout'));
    }, this.options.requestTimeoutMs);
    const clear = () => clearTimeout(timer);
    req.once('end', clear);
    res.once('close', clear);
  }

  /** Asks every session to end once its open streams have (GOAWAY), or ends them all now. */
  closeSessions(now: boolean): void {
    for (const session of this.sessions) {
      if (now) session.destroy();
      else session.close();
    }
  }
}
