// The structural facts of a provider's published API description as ajv validators, one per
// schema the tests name: OpenAI's OpenAPI document (test/fixtures/openapi/, written by
// scripts/derive-openapi-facts.mjs) and the Gemini API's protos (test/fixtures/google/, written by
// scripts/derive-gemini-facts.mjs), both kept as JSON Schema under `components.schemas`.
//
// Readings of OpenAI's document, about how it is written rather than what it says:
// - `nullable: true` is OpenAPI 3.0's "null is allowed too", which the document (3.1) still uses
//   on dozens of members whose live values are null (`usage: null` on stream chunks); 3.1
//   validators ignore it, so it is rewritten as `anyOf: [the schema, {type: null}]`.
// - `format: unixtime` and `format: float` are the document's own names (a seconds count, a
//   number), not JSON Schema formats: known, and checked by `type` alone.

import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';

// ajv-formats is CommonJS (`module.exports = plugin; exports.default = plugin`).
const addFormats = ((formatsModule as { default?: unknown }).default ?? formatsModule) as unknown as (ajv: Ajv2020) => void;

export interface DescriptionFacts {
  source: { repository: string; commit: string; date: string; version: string; license: string };
  roots: Record<string, string>;
  schemas: Record<string, Schema>;
}

export type Schema = { [keyword: string]: any } | boolean;

/** OpenAI's OpenAPI document (scripts/derive-openapi-facts.mjs). */
export const OPENAI_FACTS_FILE = new URL('../fixtures/openapi/openai-2.3.0.json', import.meta.url);
/** The Gemini API's protos, in the JSON their mapping gives the wire (scripts/derive-gemini-facts.mjs). */
export const GEMINI_FACTS_FILE = new URL('../fixtures/google/generativelanguage-v1beta.json', import.meta.url);

export function loadFacts(file: URL = OPENAI_FACTS_FILE): DescriptionFacts {
  return JSON.parse(readFileSync(file, 'utf8')) as DescriptionFacts;
}

const ONE_SCHEMA = new Set(['items', 'not', 'propertyNames', 'contains', 'additionalProperties']);
const SCHEMA_LIST = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_MAP = new Set(['properties', 'patternProperties']);

function readable(node: Schema, oneOf: 'oneOf' | 'anyOf'): Schema {
  if (typeof node === 'boolean') return node;
  const out: Record<string, any> = {};
  const again = (item: Schema) => readable(item, oneOf);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'nullable') continue;
    if (ONE_SCHEMA.has(key)) out[key] = again(value as Schema);
    else if (SCHEMA_LIST.has(key)) out[key === 'oneOf' ? oneOf : key] = (value as Schema[]).map(again);
    else if (SCHEMA_MAP.has(key))
      out[key] = Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([name, item]) => [name, again(item)]));
    else out[key] = value;
  }
  // anyOf, not `type: [..., 'null']`: an enum without null would still refuse null in the branch.
  return node.nullable === true ? { anyOf: [out, { type: 'null' }] } : out;
}

export interface Validators {
  facts: DescriptionFacts;
  /** The validator of one component schema of the document. */
  schema(name: string): ValidateFunction;
  /** The validator of a root (`chat.response`, `responses.event`, `error` …). */
  root(name: string): ValidateFunction;
}

const ID = 'https://understudy.invalid/openai-openapi.json';

/**
 * Validators of the facts. `oneOf: 'anyOf'` reads every oneOf as anyOf: the description's oneOf
 * branches overlap in places (an input message `{role, content}` is both an EasyInputMessage and
 * an InputMessage), so "exactly one branch" would refuse bodies the API takes; judging requests,
 * a body is forbidden only when no branch takes it.
 */
export function descriptionValidators(facts: DescriptionFacts = loadFacts(), options: { oneOf?: 'oneOf' | 'anyOf' } = {}): Validators {
  const oneOf = options.oneOf ?? 'oneOf';
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, strictTypes: false, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addFormat('unixtime', true);
  ajv.addFormat('float', true);
  ajv.addKeyword({ keyword: 'components', schemaType: 'object' });
  const schemas: Record<string, Schema> = {};
  for (const [name, schema] of Object.entries(facts.schemas)) schemas[name] = readable(schema, oneOf);
  ajv.addSchema({ $id: ID, components: { schemas } });
  const compiled = new Map<string, ValidateFunction>();
  const schema = (name: string): ValidateFunction => {
    if (!Object.hasOwn(facts.schemas, name)) throw new Error(`no schema ${name} in the derived facts`);
    const known = compiled.get(name);
    if (known) return known;
    const validate = ajv.compile({ $ref: `${ID}#/components/schemas/${name}` });
    compiled.set(name, validate);
    return validate;
  };
  return {
    facts,
    schema,
    root(name) {
      const target = facts.roots[name];
      if (target === undefined) throw new Error(`no root ${name}`);
      return schema(target);
    },
  };
}

/** The errors of a failed validation, short enough to read in an assertion message. */
export function describeErrors(errors: ErrorObject[] | null | undefined, limit = 8): string {
  if (!errors) return '';
  return errors
    .slice(0, limit)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
    .join('\n');
}
