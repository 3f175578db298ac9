// Writes an answer event by event on a schedule, and plays scripted faults part-way through.
// Resolves with whether the answer (or its scripted fault) reached the client; a client that
// goes away first makes it resolve false, so nothing is consumed.

import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Pacing, StreamFault } from '../core/model.js';
import { arraySource, type EventSource } from '../dialects/dialect.js';
import { scheduleAt, seededRandom } from './scheduler.js';

export interface WritePlan {
  /** Events (streams) or one body (JSON answers). */
  pieces: EventSource;
  pacing?: Pacing;
  fault?: StreamFault;
  /** The dialect's in-stream error event, for `fault.kind === 'error'`. */
  errorEvent?: string;
  seed: number;
}

/** Splits pieces so that the fault lands after `afterBytes` bytes (UTF-16 units; close enough for ASCII wire text). */
function cutAtBytes(pieces: string[], bytes: number): string[] {
  const out: string[] = [];
  let left = bytes;
  for (const piece of pieces) {
    if (left <= 0) break;
    if (piece.length <= left) {
      out.push(piece);
      left -= piece.length;
    } else {
      out.push(piece.slice(0, left));
      left = 0;
    }
  }
  return out;
}

const HEX_DIGITS = Buffer.from('0123456789abcdef');
const CR = 13;
const LF = 10;

/** What node:http keeps on a socket to know which response it carries (not in its types). */
type HttpSocket = Socket & { _httpMessage?: unknown };

/**
 * Writes piece `index` of a chunked response as a single framed buffer straight to its socket, when
 * that is exactly what node:http would put on the wire: the response owns the socket, its headers
 * went out and nothing of it waits in node:http's own queue. Through `res.write` every piece costs
 * four queued writes, a cork and a tick to uncork; with ten thousand paced streams that is most of
 * the server's time per write. The piece's bytes come from `pieces.bytes` when the dialect has
 * them (no string is built). Anything else (a pipelined response still waiting for its socket,
 * HTTP/1.0 without chunking) goes through `res.write`. Says whether the socket still flows, and
 * which emitter to wait on for 'drain' when it does not.
 */
function writePiece(res: ServerResponse, pieces: EventSource, index: number): { flowing: boolean; drains: NodeJS.EventEmitter } {
  const socket = res.socket as HttpSocket | null;
  if (!socket || socket._httpMessage !== res || !res.headersSent || !res.chunkedEncoding || res.writableLength !== socket.writableLength)
    return { flowing: res.write(pieces.at(index)), drains: res };
  const bytes = pieces.bytes;
  const piece = bytes ? '' : pieces.at(index);
  const size = bytes ? bytes.sizeAt(index) : Buffer.byteLength(piece);
  // An empty chunk would end the response: node:http writes nothing for it either.
  if (size === 0) return { flowing: true, drains: socket };
  // The chunk-size line as node:http writes it (lowercase hex), byte by byte.
  let digits = 1;
  while (size >= 16 ** digits) digits++;
  const frame = Buffer.allocUnsafe(digits + size + 4);
  for (let i = 0; i < digits; i++) frame[i] = HEX_DIGITS[(size / 16 ** (digits - 1 - i)) & 15];
  const at = digits + 2;
  frame[digits] = CR;
  frame[digits + 1] = LF;
  if (bytes) bytes.copyAt(index, frame, at);
  else frame.write(piece, at, 'utf8');
  frame[at + size] = CR;
  frame[at + size + 1] = LF;
  return { flowing: socket.write(frame), drains: socket };
}

export function writePlanned(res: ServerResponse, plan: WritePlan): Promise<boolean> {
  const { pacing, fault } = plan;
  let pieces = plan.pieces;
  if (fault) {
    const all = Array.from({ length: pieces.length }, (_, i) => plan.pieces.at(i));
    pieces = arraySource(fault.afterBytes !== undefined ? cutAtBytes(all, fault.afterBytes) : all.slice(0, fault.afterChunks ?? 1));
  }
  const random = seededRandom(plan.seed);
  const gap = pacing?.chunksPerSecond ? 1000 / pacing.chunksPerSecond : 0;
  const jitter = pacing?.jitterMs ?? 0;
  let at = performance.now() + (pacing?.ttftMs ?? 0);

  return new Promise((resolve) => {
    let index = 0;
    let settled = false;
    const finish = (delivered: boolean) => {
      if (settled) return;
      settled = true;
      resolve(delivered);
    };
    res.once('close', () => finish(res.writableFinished || faultPlayed));
    let faultPlayed = false;

    const playFault = () => {
      faultPlayed = true;
      switch (fault?.kind) {
        case 'error':
          res.end(plan.errorEvent ?? '');
          break;
        case 'malformed':
          res.end('data: {"choices":[{"delta":{"content":"trunc\n\n');
          break;
        case 'truncate':
          res.end();
          break;
        case 'stall':
          // Nothing more: the client's timeout ends it (or the server closing). It was delivered
          // as scripted, so it counts as consumed.
          finish(true);
          break;
        case 'reset':
          res.socket?.resetAndDestroy();
          break;
        case 'close':
          res.socket?.destroy();
          break;
      }
    };

    const step = () => {
      if (settled || res.destroyed) return finish(faultPlayed);
      if (index < pieces.length) {
        const { flowing, drains } = writePiece(res, pieces, index++);
        if (index < pieces.length || fault) {
          at += gap + (jitter ? (random() * 2 - 1) * jitter : 0);
          // A slow reader: wait until its buffer drains instead of queueing without bound.
          if (flowing) scheduleAt(at, step);
          else
            drains.once('drain', () => {
              at = Math.max(at, performance.now());
              scheduleAt(at, step);
            });
          return;
        }
      }
      if (fault && !faultPlayed) return playFault();
      res.end();
    };

    // A stall before anything was written sends no bytes at all, not even headers.
    const silent = fault?.kind === 'stall' && pieces.length === 0;
    if (!silent) res.flushHeaders();
    // The first write's lateness reflects request handling, not pacing: it is not measured.
    scheduleAt(at, () => step(), false);
  });
}
