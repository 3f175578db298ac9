// How an answer is cut short, on each protocol: the `reset` and `close` faults, and the end of an
// answer whose client stopped reading. On HTTP/1.x each takes the connection down (it carries one
// answer at a time); on HTTP/2 each ends only the answer's stream, so the other requests
// multiplexed on the session are not touched.

import type { ServerResponse } from 'node:http';
import { constants, type ServerHttp2Stream } from 'node:http2';

/** The HTTP/2 stream under a response, when the response is an HTTP/2 one. */
export function http2StreamOf(res: ServerResponse): ServerHttp2Stream | undefined {
  return (res as ServerResponse & { stream?: ServerHttp2Stream }).stream;
}

/** The `reset` fault: HTTP/1.x resets the connection (TCP RST); HTTP/2 resets the answer's stream
 * (RST_STREAM INTERNAL_ERROR), and the session's other streams go on. */
export function resetAnswer(res: ServerResponse): void {
  const stream = http2StreamOf(res);
  if (stream) afterWritten(stream, () => stream.close(constants.NGHTTP2_INTERNAL_ERROR));
  else res.socket?.resetAndDestroy();
}

/** The `close` fault: HTTP/1.x closes the connection mid-answer; HTTP/2 sends GOAWAY (new requests
 * go to a new connection, streams already open finish) and cuts this stream (RST_STREAM CANCEL,
 * what a session that goes away leaves its open streams with) (docs/timing-and-faults.md). */
export function dropAnswer(res: ServerResponse): void {
  const stream = http2StreamOf(res);
  if (!stream) {
    res.socket?.destroy();
    return;
  }
  afterWritten(stream, () => {
    stream.session?.close();
    stream.close(constants.NGHTTP2_CANCEL);
  });
}

/** Turns of the event loop a cut waits for what was written before it to leave. */
const FLUSH_TURNS = 100;

/** Runs `cut` once what was written to the stream has gone out: an RST_STREAM overtakes the DATA
 * frames still queued before it, and the client would not see the events the fault comes after.
 * A client whose window is shut gets the cut after FLUSH_TURNS turns all the same. */
function afterWritten(stream: ServerHttp2Stream, cut: () => void, turns = 0): void {
  if (stream.writableLength === 0 || stream.destroyed || turns >= FLUSH_TURNS) cut();
  else setImmediate(() => afterWritten(stream, cut, turns + 1));
}

/** Ends an answer whose client stopped reading (stalled-reader.ts): its connection on HTTP/1.x,
 * its stream only on HTTP/2 (RST_STREAM CANCEL). */
export function cutOff(res: ServerResponse): void {
  const stream = http2StreamOf(res);
  if (stream) stream.close(constants.NGHTTP2_CANCEL);
  else res.destroy();
}
