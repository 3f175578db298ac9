// A client that stops reading a large or paced answer holds its connection and its reserved step
// for as long as it stays: the writers wait for 'drain' rather than buffer without bound. Waiting
// is given a limit: a client that has read nothing for that long is disconnected, its step is
// released (nothing consumed) and its journal entry says it stalled.

import type { ServerResponse } from 'node:http';
import { cutOff } from './answer-cuts.js';

/** Longest wait for a client to take more of an answer, in ms (ServerOptions.stalledReaderMs). */
export const DEFAULT_STALLED_READER_MS = 60_000;

const stalled = new WeakSet<ServerResponse>();

/** Runs `then` once `drains` emits 'drain'; if that takes longer than `ms`, the response is
 * destroyed instead (its 'close' then settles the writer as undelivered). */
export function whenDrained(res: ServerResponse, drains: NodeJS.EventEmitter, ms: number, then: () => void): void {
  const onDrain = () => {
    clearTimeout(timer);
    res.off('close', onClose);
    then();
  };
  const onClose = () => {
    clearTimeout(timer);
    drains.off('drain', onDrain);
  };
  const timer = setTimeout(() => {
    drains.off('drain', onDrain);
    res.off('close', onClose);
    stalled.add(res);
    cutOff(res);
  }, ms);
  drains.once('drain', onDrain);
  res.once('close', onClose);
}

/** Whether the server closed this response because its client stopped reading. */
export function closedAsStalled(res: ServerResponse): boolean {
  return stalled.has(res);
}
