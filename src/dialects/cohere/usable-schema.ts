import { checkSchema } from '../../core/schema.js';
import { fail } from './wording.js';

/** A declared schema (a tool's parameters, an output schema) must be one Understudy can use. */
export function usableSchema(schema: Record<string, unknown>, path: string): void {
  const invalid = checkSchema(schema);
  if (invalid) fail(path, `${path} is not a valid JSON schema: ${invalid.error}`);
}
