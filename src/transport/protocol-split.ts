// One port, two protocols: a connection that opens with the HTTP/2 connection preface (cleartext
// HTTP/2 with prior knowledge, as the AWS SDK's NodeHttp2Handler speaks to an http:// endpoint) is
// handed to node:http2, every other one to node:http's own connection handling. The choice is made
// once per connection from its first bytes, so requests pay nothing (decision 0012).

import type { Server } from 'node:http';
import type { Http2Server } from 'node:http2';
import type { Socket } from 'node:net';

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

export interface SplitOptions {
  /** How long a connection may stay silent before it is told so (`silent`). */
  firstBytesMs: number;
  /** Answers a connection that sent nothing in time (node:http would answer it a 408). */
  silent(socket: Socket): void;
}

/** Whether `head` is the preface (true), cannot be it (false), or is too short to tell. */
function prefaceState(head: Buffer): boolean | undefined {
  const n = Math.min(head.length, PREFACE.length);
  for (let i = 0; i < n; i++) if (head[i] !== PREFACE[i]) return false;
  return n === PREFACE.length ? true : undefined;
}

/** Puts itself in front of node:http's 'connection' handler: HTTP/1.x connections go on to it with
 * their first bytes put back, HTTP/2 ones to `h2`. The http server stays the one listening, so its
 * connection count, timeouts and shutdown keep covering HTTP/1.x connections as before. Returns the
 * connections not yet told apart, for shutdown. */
export function splitProtocols(http: Server, h2: Http2Server, options: SplitOptions): Set<Socket> {
  const [h1Connection] = http.listeners('connection') as ((socket: Socket) => void)[];
  http.removeListener('connection', h1Connection);
  const undecided = new Set<Socket>();
  http.on('connection', (socket: Socket) => {
    undecided.add(socket);
    /** What arrived so far, while it could still be the start of a preface. */
    let head: Buffer | undefined;
    const timer = setTimeout(() => {
      settle();
      if (head) socket.unshift(head);
      options.silent(socket);
    }, options.firstBytesMs);
    const onError = () => socket.destroy();
    function settle(): void {
      clearTimeout(timer);
      undecided.delete(socket);
      socket.removeListener('readable', onReadable);
      socket.removeListener('error', onError);
      socket.removeListener('close', settle);
    }
    function onReadable(): void {
      const chunk = socket.read() as Buffer | null;
      if (chunk === null) return;
      head = head ? Buffer.concat([head, chunk]) : chunk;
      const isH2 = prefaceState(head);
      // A preface cut short by the network: wait for the rest (kept here, not put back, or the
      // stream would announce the same bytes again at once).
      if (isH2 === undefined) return;
      settle();
      socket.unshift(head);
      if (isH2) h2.emit('connection', socket);
      else h1Connection.call(http, socket);
    }
    socket.on('error', onError);
    socket.on('close', settle);
    socket.on('readable', onReadable);
  });
  return undecided;
}
