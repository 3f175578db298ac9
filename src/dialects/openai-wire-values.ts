// Value descriptions shared by the OpenAI wires (Chat Completions and Responses) in their 400 messages.

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      // Beyond 2^53 (or written with an exponent, as 1.5e300) the API's JSON reader has a decimal.
      return Number.isSafeInteger(value) ? 'an integer' : 'a decimal';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}
