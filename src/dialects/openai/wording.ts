// OpenAI's words for a field that fails a check, shared by every OpenAI-shaped route (Chat
// Completions, Responses, and the OpenAI-compatible hosts): "Invalid type for 'x': expected an
// integer, but got a string instead.", "Missing required parameter: 'x'.", "Invalid value: 'x'.
// Supported values are: …", with the field as `param` and a code for each kind.

import { invalidRequest, type NeutralError } from '../../core/errors.js';
import { jsonKind, type JsonKind } from '../wire-kit/values.js';
import type { Bounds, Expected, Wording } from '../wire-kit/wording.js';

const TYPE_NAMES: Record<JsonKind, string> = {
  undefined: 'undefined',
  null: 'null',
  array: 'an array',
  object: 'an object',
  string: 'a string',
  boolean: 'a boolean',
  integer: 'an integer',
  decimal: 'a decimal',
};

/** How OpenAI names the type of a value it did not expect ("an integer", "a decimal"). */
export function typeName(value: unknown): string {
  return TYPE_NAMES[jsonKind(value)];
}

const EXPECTED: Record<Expected, string> = {
  string: 'a string',
  object: 'an object',
  array: 'an array',
  boolean: 'a boolean',
  number: 'a decimal',
  integer: 'an integer',
};

/** `'a'`, `'a' and 'b'`, `'a', 'b', and 'c'` — OpenAI's way of listing values. */
export function listValues(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  if (quoted.length <= 1) return quoted.join('');
  if (quoted.length === 2) return `${quoted[0]} and ${quoted[1]}`;
  return `${quoted.slice(0, -1).join(', ')}, and ${quoted[quoted.length - 1]}`;
}

function wrongType(path: string, expected: Expected, value: unknown, as?: string): NeutralError {
  return invalidRequest(
    `Invalid type for '${path}': expected ${as ?? EXPECTED[expected]}, but got ${typeName(value)} instead.`,
    path,
    'invalid_type',
  );
}

function wrongLength(path: string, kind: 'string' | 'array', length: number, bounds: Bounds): NeutralError {
  const below = bounds.min !== undefined && length < bounds.min;
  if (kind === 'string') {
    if (below && length === 0) {
      return invalidRequest(
        `Invalid '${path}': empty string. Expected a string with minimum length ${bounds.min}, but got an empty string instead.`,
        path,
        'empty_string',
      );
    }
    return below
      ? invalidRequest(
          `Invalid '${path}': string too short. Expected a string with minimum length ${bounds.min}, but got a string with length ${length} instead.`,
          path,
          'string_below_min_length',
        )
      : invalidRequest(
          `Invalid '${path}': string too long. Expected a string with maximum length ${bounds.max}, but got a string with length ${length} instead.`,
          path,
          'string_above_max_length',
        );
  }
  if (!below) {
    return invalidRequest(
      `Invalid '${path}': array too long. Expected an array with maximum length ${bounds.max}, but got an array with length ${length} instead.`,
      path,
      'array_above_max_length',
    );
  }
  if (length === 0) {
    return invalidRequest(
      `Invalid '${path}': empty array. Expected an array with minimum length ${bounds.min}, but got an empty array instead.`,
      path,
      'empty_array',
    );
  }
  return invalidRequest(
    `Invalid '${path}': array too short. Expected an array with minimum length ${bounds.min}, but got an array with length ${length} instead.`,
    path,
    'array_below_min_length',
  );
}

export const OPENAI_WORDING: Wording = {
  wrongType,
  missing: (path) => invalidRequest(`Missing required parameter: '${path}'.`, path, 'missing_required_parameter'),
  notAllowed(path, value, allowed) {
    if (typeof value !== 'string') return wrongType(path, 'string', value);
    return invalidRequest(`Invalid value: '${value}'. Supported values are: ${listValues(allowed)}.`, path, 'invalid_value');
  },
  outOfRange(path, value, bounds, kind) {
    const name = kind === 'integer' ? 'integer' : 'decimal';
    if (bounds.min !== undefined && value < bounds.min) {
      return invalidRequest(
        `Invalid '${path}': ${name} below minimum value. Expected a value >= ${bounds.min}, but got ${value} instead.`,
        path,
        `${name}_below_min_value`,
      );
    }
    return invalidRequest(
      `Invalid '${path}': ${name} above maximum value. Expected a value <= ${bounds.max}, but got ${value} instead.`,
      path,
      `${name}_above_max_value`,
    );
  },
  wrongLength,
  member: (path, key) => `${path}.${key}`,
};
