// A step's fault in a framework's terms, shared by the in-process models: there are no bytes or
// connections, so `error` becomes the fault's UnderstudyModelError, the wire's cuts (`malformed`,
// `reset`, `close`, and `truncate` where nothing can end quietly) an UnderstudyFaultError, and
// `stall` a wait for the call's abort signal. The classes come from the package root, as each
// entry's do (errors.ts).

import type { FaultKind, StreamFault } from '../core/model.js';
import { UnderstudyFaultError, UnderstudyModelError } from '../index.js';

const CUT: Record<Exclude<FaultKind, 'error' | 'stall'>, string> = {
  truncate: 'the answer ended before it was complete (scripted fault "truncate")',
  malformed: 'the answer was malformed (scripted fault "malformed")',
  reset: 'the connection was reset (scripted fault "reset")',
  close: 'the connection closed before the answer was complete (scripted fault "close")',
};

/** The error a fault other than `stall` fails the call with. */
export function faultFailure(fault: StreamFault & { kind: Exclude<FaultKind, 'stall'> }): Error {
  if (fault.kind !== 'error') return new UnderstudyFaultError(fault.kind, CUT[fault.kind]);
  const error = fault.error ?? {};
  return new UnderstudyModelError({
    kind: 'scripted',
    status: error.status ?? 500,
    code: error.code ?? null,
    message: error.message ?? 'Internal error',
    ...(error.type !== undefined && { type: error.type }),
  });
}

/** A stalled answer: rejects with the signal's reason once the call is aborted; at once, when the
 * call has no signal that could ever end it (a test would hang). */
export function stalled(signal: AbortSignal | undefined): Promise<never> {
  if (!signal) {
    return Promise.reject(
      new UnderstudyFaultError(
        'stall',
        'the answer stalls (scripted fault "stall") and this call has no abort signal or timeout to end it: give it one',
      ),
    );
  }
  return new Promise((_, reject) => {
    // A stalled connection keeps a process alive; AbortSignal.timeout's timer does not, so the
    // stall holds a timer of its own until the signal ends it.
    const alive = setInterval(() => {}, 60_000);
    const fail = () => {
      clearInterval(alive);
      reject(signal.reason ?? new DOMException('the caller aborted a stalled answer', 'AbortError'));
    };
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}
