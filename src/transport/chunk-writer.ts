// One piece of a paced answer onto the wire (see writePiece).

import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { EventSource } from '../dialects/dialect.js';

/** Frames are put together here, and the same bytes reused while the kernel takes each frame whole
 * at once: a fresh buffer per piece (slices of node's shared pool) cost more memory per open
 * stream in allocator churn (docs/performance.md). */
const SCRATCH = 64 * 1024;
let scratch = Buffer.allocUnsafeSlow(SCRATCH);
let scratchUsed = 0;

const HEX_DIGITS = Buffer.from('0123456789abcdef');
const CR = 13;
const LF = 10;

/** What node:http keeps on a socket to know which response it carries (not in its types). */
type HttpSocket = Socket & { _httpMessage?: unknown };

/**
 * Writes piece `index` of a chunked response as a single framed buffer straight to its socket, when
 * that is exactly what node:http would put on the wire: the response owns the socket, its headers
 * went out and nothing of it waits in node:http's own queue. Through `res.write` every piece costs
 * four queued writes, a cork and a tick to uncork (the measured cost is in decision 0006 and
 * docs/performance.md). The piece's bytes come from `pieces.bytes` when the dialect has
 * them (no string is built). Anything else (a pipelined response still waiting for its socket,
 * HTTP/1.0 without chunking) goes through `res.write`. Says whether the socket still flows, and
 * which emitter to wait on for 'drain' when it does not. `encoding` is the pieces' (latin1 for a
 * dialect's binary frames).
 */
export function writePiece(
  res: ServerResponse,
  pieces: EventSource,
  index: number,
  encoding: BufferEncoding = 'utf8',
): { flowing: boolean; drains: NodeJS.EventEmitter } {
  const socket = res.socket as HttpSocket | null;
  if (!socket || socket._httpMessage !== res || !res.headersSent || !res.chunkedEncoding || res.writableLength !== socket.writableLength)
    return { flowing: res.write(pieces.at(index), encoding), drains: res };
  const bytes = pieces.bytes;
  const piece = bytes ? '' : pieces.at(index);
  const size = bytes ? bytes.sizeAt(index) : Buffer.byteLength(piece, encoding);
  // An empty chunk would end the response: node:http writes nothing for it either.
  if (size === 0) return { flowing: true, drains: socket };
  // The chunk-size line as node:http writes it (lowercase hex), byte by byte.
  let digits = 1;
  for (let rest = size >>> 4; rest > 0; rest >>>= 4) digits++;
  const length = digits + size + 4;
  if (scratch.length - scratchUsed < length) {
    scratch = Buffer.allocUnsafeSlow(Math.max(SCRATCH, length));
    scratchUsed = 0;
  }
  const frame = scratch.subarray(scratchUsed, scratchUsed + length);
  for (let i = 0, shift = 4 * (digits - 1); i < digits; i++, shift -= 4) frame[i] = HEX_DIGITS[(size >>> shift) & 15];
  const at = digits + 2;
  frame[digits] = CR;
  frame[digits + 1] = LF;
  if (bytes) bytes.copyAt(index, frame, at);
  else frame.write(piece, at, encoding);
  frame[at + size] = CR;
  frame[at + size + 1] = LF;
  const flowing = socket.write(frame);
  // Handed to the kernel at once (the usual case): the bytes may be written over by the next
  // piece. Otherwise the socket holds on to them until it drains, so they are left to it.
  if (socket.writableLength !== 0) scratchUsed += length;
  return { flowing, drains: socket };
}
