// Checks a value a test builds (arguments, a result, an error) against the catalogue's JSON Schema,
// as the JSON it will be sent as: members left undefined are dropped, which is how an optional
// field left unset is omitted. A value that is not JSON, or that the schema refuses, throws an
// error naming the preset, the path inside the value and what was expected.

import type { JsonSchema, JsonValue } from '../core/model.js';
import { compileSchema, isSchemaError } from '../core/schema.js';

export type PresetPart = 'arguments' | 'result' | 'error';

export class PresetValueError extends Error {
  constructor(
    readonly preset: string,
    readonly part: PresetPart | 'call id' | 'delay',
    /** One line per problem, each naming a path (`at /unit: must be …`). */
    readonly problems: string[],
  ) {
    super(`preset ${preset}: invalid ${part}: ${problems.join('; ')}`);
    this.name = 'PresetValueError';
  }
}

function pointer(path: (string | number)[]): string {
  return path.length === 0 ? '(root)' : '/' + path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/** The value as JSON, undefined members left out; throws on anything JSON cannot carry. */
function asJson(value: unknown, path: (string | number)[], fail: (problem: string) => never): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    // -0 is sent as 0 (JSON has no negative zero), so it is built as 0.
    if (Number.isFinite(value)) return value === 0 ? 0 : value;
    return fail(`at ${pointer(path)}: must be a finite number; found ${String(value)}`);
  }
  if (Array.isArray(value)) return value.map((item, i) => asJson(item, [...path, i], fail));
  if (typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    const out: { [key: string]: JsonValue } = {};
    for (const [key, member] of Object.entries(value)) {
      if (member !== undefined) out[key] = asJson(member, [...path, key], fail);
    }
    return out;
  }
  return fail(`at ${pointer(path)}: must be a JSON value; found ${value === undefined ? 'undefined' : typeof value}`);
}

/** The value as the JSON it is sent as, once the schema accepts it. */
export function checkedJson<T>(preset: string, part: PresetPart, schema: JsonSchema, value: T): T {
  const fail = (problem: string): never => {
    throw new PresetValueError(preset, part, [problem]);
  };
  const json = asJson(value, [], fail);
  const compiled = compileSchema(schema);
  if (isSchemaError(compiled)) throw new Error(`preset ${preset}: its ${part} schema does not compile: ${compiled.error}`);
  const problems = compiled.validate(json);
  if (problems.length > 0) throw new PresetValueError(preset, part, problems);
  return json as T;
}

/** Most characters of a call id, as in fixture files. */
export const CALL_ID_MAX = 128;

export function checkedCallId(preset: string, id: string): string {
  const problem =
    typeof id !== 'string'
      ? `must be a string; found ${typeof id}`
      : id.trim() === ''
        ? 'must not be blank'
        : id.length > CALL_ID_MAX
          ? `must be at most ${CALL_ID_MAX} characters; found ${id.length}`
          : undefined;
  if (problem !== undefined) throw new PresetValueError(preset, 'call id', [problem]);
  return id;
}
