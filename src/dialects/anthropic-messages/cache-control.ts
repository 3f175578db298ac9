// `cache_control` markers: checked wherever they may appear and otherwise ignored, except that a
// request carrying any is answered with prompt caching reported as marked.

import { given } from '../wire-kit/values.js';
import { expectEnum, expectObject, requiredMember } from './wording.js';

/** Set while decoding when any `cache_control` marker was seen (decoding is synchronous). */
let sawCacheControl = false;

/** Forgets the markers of the previous request. */
export function resetCacheControl(): void {
  sawCacheControl = false;
}

/** True when the request decoded since the last reset carried a marker. */
export function cacheControlSeen(): boolean {
  return sawCacheControl;
}

export function cacheControl(value: unknown, path: string): void {
  if (!given(value)) return;
  sawCacheControl = true;
  const c = expectObject(value, path);
  expectEnum(requiredMember(c, 'type', path), ['ephemeral'], `${path}.type`);
  if (given(c.ttl)) expectEnum(c.ttl, ['5m', '1h'], `${path}.ttl`);
}
