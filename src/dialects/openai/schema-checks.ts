// Declared schemas on OpenAI routes (a tool's parameters, a response format's schema): refused
// with OpenAI's 400 when Understudy could not use them or, with `strict: true`, when they break
// the Structured Outputs rules.

import { checkSchema } from '../../core/schema.js';
import { TextKeyedCache } from '../../core/text-keyed-cache.js';
import { fail } from './checks.js';
import { strictSchemaProblem } from './strict-schema.js';

/** The Structured Outputs verdict of schemas sent with `strict: true`, by schema text (bounded:
 * the oldest are forgotten first). */
const strictVerdicts = new TextKeyedCache<string | null>(8 * 1024 * 1024, 2048);

/**
 * A tool's parameters or an output schema must be a schema Understudy can compile (checked without
 * compiling where that can be told, and cached by schema text: core/schema.ts checkSchema) and,
 * with `strict: true`, keep OpenAI's Structured Outputs rules.
 */
export function expectSchema(schema: Record<string, unknown>, param: string, what: string, code: string, strict = false): void {
  // Function parameters and response formats are objects at the root on every OpenAI route.
  if (schema.type !== undefined && schema.type !== 'object') {
    fail(
      `Invalid schema for ${what}: schema must be a JSON Schema of 'type: "object"', got 'type: ${JSON.stringify(schema.type)}'.`,
      param,
      code,
    );
  }
  const invalid = checkSchema(schema);
  if (invalid) fail(`Invalid schema for ${what}: ${invalid.error}.`, param, code);
  if (!strict) return;
  const key = JSON.stringify(schema);
  let problem = strictVerdicts.get(key);
  if (problem === undefined) {
    problem = strictSchemaProblem(schema);
    strictVerdicts.set(key, problem);
  }
  if (problem !== null) fail(`Invalid schema for ${what}: ${problem}`, param, code);
}

/** Most tools one request may declare: OpenAI documents 128 functions for Chat Completions; other
 * OpenAI routes take Understudy's own bound on declared schemas. */
export const CHAT_MAX_TOOLS = 128;
