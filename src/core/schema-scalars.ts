// The smallest number and string a schema's facts admit (see schema-instance.ts for the rules):
// numbers nearest 0 within the bounds, strings from minLength, a fixed value per format, or a
// string spelled from the pattern.

import type { Facts, Made } from './schema-facts.js';
import { fail, show } from './schema-facts.js';
import { regexExample } from './regex-example.js';

/** Longest string and array made. */
export const MAX_LENGTH = 10_000;

/** Fixed values for string formats (ajv-formats' names). */
const FORMAT_VALUES: Record<string, string> = {
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  duration: 'P0D',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  uri: 'https://example.com',
  'uri-reference': 'https://example.com',
  iri: 'https://example.com',
  'iri-reference': 'https://example.com',
  url: 'https://example.com',
  'uri-template': 'https://example.com',
  uuid: '00000000-0000-0000-0000-000000000000',
  'json-pointer': '',
  'relative-json-pointer': '0',
  regex: '',
  byte: '',
};

/** Strings tried against a pattern the regex reader could not spell. */
const PATTERN_CANDIDATES = ['', 'a', 'A', '0', 'a0', 'aa', 'example', 'A0', '00', 'a-a', 'a_a', 'a.a', 'a@a.aa'];

/** Ajv's own multipleOf test (without multipleOfPrecision). */
function isMultiple(v: number, m: number): boolean {
  const q = v / m;
  return q === parseInt(String(q), 10);
}

export function numberOf(integer: boolean, facts: Facts, path: string): Made {
  const s = facts.s;
  const num = (k: string): number | undefined => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
  const min = num('minimum');
  const xmin = num('exclusiveMinimum');
  const max = num('maximum');
  const xmax = num('exclusiveMaximum');
  const m = num('multipleOf');
  const fits = (v: number): boolean =>
    Number.isFinite(v) &&
    (min === undefined || v >= min) &&
    (xmin === undefined || v > xmin) &&
    (max === undefined || v <= max) &&
    (xmax === undefined || v < xmax) &&
    (!integer || Number.isInteger(v)) &&
    (m === undefined || m <= 0 || isMultiple(v, m));
  if (fits(0)) return { ok: true, value: 0 };
  const lo = Math.max(min ?? -Infinity, xmin ?? -Infinity);
  const hi = Math.min(max ?? Infinity, xmax ?? Infinity);
  // 0 is out of range, so the range lies at or above 0, or at or below it: the value nearest to 0
  // is near that bound.
  const up = lo >= 0;
  if (!up && hi > 0) return fail(facts.at.type ?? path, 'no number satisfies the bounds');
  const binding = up
    ? xmin !== undefined && xmin >= (min ?? -Infinity)
      ? 'exclusiveMinimum'
      : 'minimum'
    : xmax !== undefined && xmax <= (max ?? Infinity)
      ? 'exclusiveMaximum'
      : 'maximum';
  const where = facts.at[binding] ?? path;
  let step = m !== undefined && m > 0 ? m : integer ? 1 : undefined;
  if (integer && step !== undefined && !Number.isInteger(step)) {
    let k = 1;
    while (k <= 1000 && !Number.isInteger(step * k)) k++;
    if (k > 1000) return fail(facts.at.multipleOf ?? path, `no integer is a multiple of ${step}`);
    step = Math.round(step * k);
  }
  const bound = up ? lo : hi;
  if (!Number.isFinite(bound)) return fail(where, 'no number satisfies the bounds');
  if (step === undefined) {
    const candidates = up
      ? [bound, Math.ceil(bound), Math.floor(bound) + 1, (lo + hi) / 2]
      : [bound, Math.floor(bound), Math.ceil(bound) - 1, (lo + hi) / 2];
    for (const v of candidates) if (fits(v)) return { ok: true, value: v };
    return fail(where, `no number lies between ${show(lo)} and ${show(hi)}`);
  }
  let k = up ? Math.ceil(bound / step) : Math.floor(bound / step);
  for (let tries = 0; tries < 16; tries++, k += up ? 1 : -1) {
    const v = k * step;
    if (up ? v > hi : v < lo) break;
    if (fits(v)) return { ok: true, value: v };
  }
  return fail(
    where,
    `no ${integer ? 'integer' : 'number'}${m !== undefined ? ` that is a multiple of ${m}` : ''} lies between ${show(lo)} and ${show(hi)}`,
  );
}

export function stringOf(facts: Facts, path: string): Made {
  const s = facts.s;
  const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
  const maxLength = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  if (minLength > MAX_LENGTH)
    return fail(facts.at.minLength ?? path, `minLength ${minLength} is more than zero-config makes (${MAX_LENGTH})`);
  if (minLength > maxLength) return fail(facts.at.maxLength ?? path, `minLength ${minLength} is more than maxLength ${maxLength}`);
  const patterns = Array.isArray(s.pattern) ? (s.pattern as unknown[]).filter((p): p is string => typeof p === 'string') : [];
  let regexes: RegExp[];
  try {
    regexes = patterns.map((p) => new RegExp(p, 'u'));
  } catch (e) {
    return fail(facts.at.pattern ?? path, `the pattern is not a valid regular expression: ${(e as Error).message}`);
  }
  const length = (v: string): number => [...v].length;
  const fits = (v: string): boolean => length(v) >= minLength && length(v) <= maxLength && regexes.every((r) => r.test(v));

  const format = typeof s.format === 'string' ? s.format : undefined;
  if (format !== undefined && FORMAT_VALUES[format] !== undefined) {
    const v = FORMAT_VALUES[format];
    if (fits(v)) return { ok: true, value: v };
    return fail(facts.at.format ?? path, `the fixed ${format} value ${show(v)} does not fit the schema's length or pattern`);
  }
  const padded = 'a'.repeat(minLength);
  if (fits(padded)) return { ok: true, value: padded };
  const proposals: string[] = [];
  for (const p of patterns) {
    const spelled = regexExample(p);
    if (spelled !== undefined) proposals.push(spelled);
  }
  proposals.push(...PATTERN_CANDIDATES);
  for (const base of proposals) {
    if (fits(base)) return { ok: true, value: base };
    const short = minLength - length(base);
    if (short > 0) {
      for (const v of [
        base + 'a'.repeat(short),
        'a'.repeat(short) + base,
        base + '0'.repeat(short),
        base.repeat(Math.ceil(minLength / Math.max(1, length(base)))),
      ]) {
        if (fits(v)) return { ok: true, value: v };
      }
    }
  }
  if (regexes.length > 0)
    return fail(
      facts.at.pattern ?? path,
      `zero-config found no string matching ${patterns.map((p) => `/${p}/`).join(' and ')}${minLength > 0 ? ` with at least ${minLength} characters` : ''}`,
    );
  return fail(facts.at.maxLength ?? path, 'no string fits the length bounds');
}
