// What the framework-native models throw. The package root exports these classes and each
// model's entry imports them from there, so that one class serves every entry (instanceof holds).

import type { NeutralError } from '../core/errors.js';
import type { FaultKind } from '../core/model.js';

/** The error a framework-native model throws when Understudy refuses a request or a script
 * answers with an error: the status and code an HTTP client would have received. */
export class UnderstudyModelError extends Error {
  readonly status: number;
  readonly code: string | null;
  /** The neutral error kind (`no_match`, `exhausted`, `mismatch`, `scripted`, …). */
  readonly kind: NeutralError['kind'];
  /** Whether the framework may retry (a scripted 429 or 5xx, as the providers' SDKs decide). */
  readonly isRetryable: boolean;
  /** A scripted error meant for inside a stream (a streamed call reports it as a stream error). */
  readonly inStream: boolean;
  constructor(error: NeutralError) {
    super(`Understudy answered ${error.status}${error.code ? ` ${error.code}` : ''}: ${error.message}`);
    this.name = 'UnderstudyModelError';
    this.status = error.status;
    this.code = error.code;
    this.kind = error.kind;
    this.isRetryable = error.kind === 'scripted' && (error.status === 429 || error.status >= 500);
    this.inStream = error.inStream === true;
  }
}

/** A step's fault that cut its answer short (`malformed`, `reset`, `close`, a `truncate` of a whole
 * answer, a `stall` with nothing to end it): what a broken connection would have been. */
export class UnderstudyFaultError extends Error {
  readonly fault: FaultKind;
  constructor(fault: FaultKind, message: string) {
    super(message);
    this.name = 'UnderstudyFaultError';
    this.fault = fault;
  }
}
