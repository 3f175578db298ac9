// Where two JSON values first differ, in words: what near-miss explanations say when a tool
// result or a call's arguments are not the ones a step waits for. Only asked once the values are
// known to differ (an explanation is being built), so it may take its time.

import { jsonEquals } from '../core/schema.js';

type Obj = { [key: string]: unknown };

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const segment = (key: string | number) => '/' + String(key).replace(/~/g, '~0').replace(/\//g, '~1');

/** `at /temperature: expected 21, found 22`, or undefined when the values are equal as JSON. */
export function jsonDifference(want: unknown, have: unknown, show: (value: unknown) => string, path = ''): string | undefined {
  if (jsonEquals(want, have)) return undefined;
  const at = path === '' ? '(root)' : path;
  if (isObj(want) && isObj(have)) {
    for (const key of Object.keys(want)) {
      const inner = path + segment(key);
      if (!Object.hasOwn(have, key)) return `at ${inner}: expected ${show(want[key])}, found nothing`;
      const difference = jsonDifference(want[key], have[key], show, inner);
      if (difference !== undefined) return difference;
    }
    for (const key of Object.keys(have)) {
      if (!Object.hasOwn(want, key)) return `at ${path + segment(key)}: found ${show(have[key])}, expected nothing`;
    }
  }
  if (Array.isArray(want) && Array.isArray(have)) {
    if (want.length !== have.length) return `at ${at}: expected ${want.length} items, found ${have.length}`;
    for (let i = 0; i < want.length; i++) {
      const difference = jsonDifference(want[i], have[i], show, path + segment(i));
      if (difference !== undefined) return difference;
    }
  }
  return `at ${at}: expected ${show(want)}, found ${show(have)}`;
}
