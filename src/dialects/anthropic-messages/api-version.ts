// The `anthropic-version` header: which versions the API accepts, and what a request without it
// is read as.

import type { WireContext } from '../dialect.js';
import { fail } from './wording.js';

/** Versions the API accepts in `anthropic-version`. */
export const API_VERSIONS: ReadonlySet<string> = new Set(['2023-01-01', '2023-06-01', '2026-10-21']);
/** The version SDK 1.x sends; it no longer accepts temperature, top_p and top_k. */
export const VERSION_2026 = '2026-10-21';
/** What a request without the header is read as, in a zero-config session. */
export const DEFAULT_VERSION = '2023-06-01';

/** The request's API version; a missing header is a 400 except in zero-config sessions. */
export function apiVersion(wire: WireContext): string {
  const raw = wire.headers['anthropic-version'];
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  if (value === undefined || value === '') {
    if (wire.state.zeroConfig?.()) return DEFAULT_VERSION;
    fail('', 'anthropic-version: header is required');
  }
  if (!API_VERSIONS.has(value)) fail('', `anthropic-version: "${value}" is not a valid version`);
  return value;
}
