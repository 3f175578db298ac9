// Writes an answer event by event on a schedule, and plays scripted faults part-way through.
// Resolves with whether the answer (or its scripted fault) reached the client; a client that
// goes away first makes it resolve false, so nothing is consumed.

import type { ServerResponse } from 'node:http';
import type { Pacing, StreamFault } from '../core/model.js';
import { arraySource, type EventSource } from '../dialects/dialect.js';
import { writePiece } from './chunk-writer.js';
import { dropAnswer, resetAnswer } from './answer-cuts.js';
import { scheduleAt, seededRandom } from './scheduler.js';
import { DEFAULT_STALLED_READER_MS, whenDrained } from './stalled-reader.js';

export interface WritePlan {
  /** Events (streams) or one body (JSON answers). */
  pieces: EventSource;
  pacing?: Pacing;
  fault?: StreamFault;
  /** The dialect's in-stream error event, for `fault.kind === 'error'`. */
  errorEvent?: string;
  /** Set for a dialect's binary stream (ChatDialect.binaryStream): the pieces' encoding and what
   * the `malformed` fault writes instead of a broken SSE line. */
  binary?: { encoding: 'latin1'; malformedFrame: string };
  seed: number;
  /** How long a client may stop reading before it is disconnected (stalled-reader.ts). */
  stalledReaderMs?: number;
  /** Called as the first piece is handed to the socket. */
  firstWrite?: () => void;
}

/** The pieces before a fault after `bytes` bytes (UTF-16 units; close enough for ASCII wire
 * text), the last one cut short. Only the pieces before the fault are made. */
function cutAtBytes(pieces: EventSource, bytes: number): string[] {
  const out: string[] = [];
  let left = bytes;
  for (let i = 0; i < pieces.length && left > 0; i++) {
    const piece = pieces.at(i);
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

/** The first `count` pieces, made when they are sent. */
function firstPieces(pieces: EventSource, count: number): EventSource {
  return { length: Math.min(count, pieces.length), at: (i) => pieces.at(i) };
}

/** The half event a malformed text stream ends with. */
const MALFORMED_SSE = 'data: {"choices":[{"delta":{"content":"trunc\n\n';

/** The pieces a plan writes before its fault's ending: all of them without a fault. */
export function plannedPieces(pieces: EventSource, fault: WritePlan['fault']): EventSource {
  if (!fault) return pieces;
  return fault.afterBytes !== undefined ? arraySource(cutAtBytes(pieces, fault.afterBytes)) : firstPieces(pieces, fault.afterChunks ?? 1);
}

/** What a fault writes after the planned pieces, as the wire text (the journal keeps it). */
export function faultEnding(plan: Pick<WritePlan, 'fault' | 'errorEvent' | 'binary'>): string {
  if (plan.fault?.kind === 'error') return plan.errorEvent ?? '';
  if (plan.fault?.kind === 'malformed') return plan.binary ? plan.binary.malformedFrame : MALFORMED_SSE;
  return '';
}

export function writePlanned(res: ServerResponse, plan: WritePlan): Promise<boolean> {
  const { pacing, fault } = plan;
  const pieces = plannedPieces(plan.pieces, fault);
  const encoding = plan.binary?.encoding ?? 'utf8';
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

    // A fault played is the answer as scripted, delivered whatever the client makes of it: settled
    // at once, so its journal entry is there before the client has even seen the cut.
    const playFault = () => {
      faultPlayed = true;
      switch (fault?.kind) {
        case 'error':
          res.end(plan.errorEvent ?? '', encoding);
          break;
        case 'malformed':
          if (plan.binary) res.end(plan.binary.malformedFrame, 'latin1');
          else res.end(MALFORMED_SSE);
          break;
        case 'truncate':
          res.end();
          break;
        case 'stall':
          // Nothing more: the client's timeout ends it (or the server closing).
          break;
        case 'reset':
          resetAnswer(res);
          break;
        case 'close':
          dropAnswer(res);
          break;
      }
      finish(true);
    };

    const step = () => {
      if (settled || res.destroyed) return finish(faultPlayed);
      if (index < pieces.length) {
        if (index === 0) plan.firstWrite?.();
        const { flowing, drains } = writePiece(res, pieces, index++, encoding);
        if (index < pieces.length || fault) {
          at += gap + (jitter ? (random() * 2 - 1) * jitter : 0);
          // A slow reader: wait until its buffer drains instead of queueing without bound.
          if (flowing) scheduleAt(at, step);
          else
            whenDrained(res, drains, plan.stalledReaderMs ?? DEFAULT_STALLED_READER_MS, () => {
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
