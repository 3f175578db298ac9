// How a decoder refuses a request: a check that fails throws a WireError carrying the neutral
// error (already in the provider's words), and the decoder's entry point hands that error back
// instead of a request. Throwing keeps every check a one-liner; only decode entry points catch.

import type { NeutralError } from '../../core/errors.js';

export class WireError extends Error {
  constructor(readonly neutral: NeutralError) {
    super(neutral.message);
  }
}

/** Refuses the request with `error` (a 400 in the provider's words, or any other neutral error). */
export function reject(error: NeutralError): never {
  throw new WireError(error);
}

/** Runs a decoder; a refusal thrown inside comes back as its neutral error. */
export function refusalOr<T>(decode: () => T): T | NeutralError {
  try {
    return decode();
  } catch (error) {
    if (error instanceof WireError) return error.neutral;
    throw error;
  }
}
