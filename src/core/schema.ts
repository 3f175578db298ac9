// JSON Schema validation for tool arguments and structured output. Isolated: nothing here ever
// fetches a schema. Schemas are compiled by Ajv in the dialect their `$schema` names, cached by
// their JSON text in a bounded cache, and validated on the hot path by the compiled function.

import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { FormatsPlugin } from 'ajv-formats';
import { jsonEqual } from './json-equal.js';
import type { JsonSchema, JsonValue } from './model.js';
import { TextKeyedCache } from './text-keyed-cache.js';

/** One problem found by validation, structured; `text` is the human-readable form. */
export interface SchemaProblem {
  /** JSON Pointer into the validated value ('' = the root). */
  path: string;
  /** Ajv keyword that failed (type, required, enum, ...). */
  keyword: string;
  /** Where in the schema the failing keyword is (`#/properties/city/minLength`). */
  schemaPath: string;
  /** e.g. `at /city: must be string`. */
  text: string;
}

export interface CompiledSchema {
  /** [] when the value is valid, else short human-readable problems (`at /city: must be string`). */
  validate(value: unknown): string[];
  /** The same problems, structured. */
  problems(value: unknown): SchemaProblem[];
}

export interface SchemaError {
  error: string;
}

export function isSchemaError(x: CompiledSchema | SchemaError): x is SchemaError {
  return (x as SchemaError).error !== undefined;
}

type Draft = 'draft-07' | '2019-09' | '2020-12';
type AjvInstance = Ajv | Ajv2019 | Ajv2020;

// Ajv and ajv-formats are CommonJS and take tens of milliseconds to load, so they are required the
// first time a schema of that draft is actually compiled, not imported: a process that never
// compiles a schema never loads them.
let require: NodeJS.Require | undefined;

function load<T>(id: string): T {
  require ??= createRequire(import.meta.url);
  return require(id) as T;
}

type AjvClass = new (options: Options) => AjvInstance;

const ajvClasses: Partial<Record<Draft, AjvClass>> = {};
let addFormatsPlugin: FormatsPlugin | undefined;

function ajvClass(draft: Draft): AjvClass {
  let cls = ajvClasses[draft];
  if (cls === undefined) {
    useJsonEqual();
    if (draft === 'draft-07') cls = load<{ Ajv: typeof Ajv }>('ajv').Ajv;
    else if (draft === '2019-09') cls = load<{ Ajv2019: typeof Ajv2019 }>('ajv/dist/2019.js').Ajv2019;
    else cls = load<{ Ajv2020: typeof Ajv2020 }>('ajv/dist/2020.js').Ajv2020;
    ajvClasses[draft] = cls;
  }
  return cls;
}

/** Ajv's keywords take their comparison from this module's export when a schema is compiled. */
function useJsonEqual(): void {
  const runtime = load<{ default: { code?: string } }>('ajv/dist/runtime/equal');
  if (runtime.default === (jsonEqual as unknown)) return;
  // Standalone code (never generated here) would name the module, as Ajv's own comparison does.
  runtime.default = Object.assign(jsonEqual, { code: runtime.default.code });
}

function addFormats(ajv: AjvInstance): void {
  if (addFormatsPlugin === undefined) {
    // `module.exports = plugin; exports.default = plugin`; take `.default` when it exists.
    const formats = load<FormatsPlugin & { default?: FormatsPlugin }>('ajv-formats');
    addFormatsPlugin = formats.default ?? formats;
  }
  addFormatsPlugin(ajv);
}

const AJV_OPTIONS: Options = {
  // Provider schemas carry keywords strict mode rejects (title is fine; propertyOrdering, x-… are not).
  strict: false,
  allErrors: true,
  // `required` and the like look at own properties only: JSON.parse makes "__proto__" an own
  // property, and without this an object lacking it would pass as having it (inherited).
  ownProperties: true,
  // Never register a compiled schema's `$id` in the shared instance (ids would collide between
  // unrelated schemas and accumulate).
  addUsedSchema: false,
  // Unknown formats etc. are ignored silently rather than logged on every compile.
  logger: false,
  // No loadSchema: Ajv can only resolve references it already holds; compile() never fetches.
};

/**
 * Ajv keeps a per-instance scope that grows with every compiled schema (the schema object, its
 * patterns and validate functions are retained there for the instance's lifetime). A single
 * long-lived instance would therefore grow with traffic, so each dialect's instance is retired
 * after RECYCLE_AFTER compilations; a retired instance is garbage once the cache has evicted the
 * validators it produced.
 */
const RECYCLE_AFTER = 500;
/** …or once the schemas it compiled add up to this many characters of JSON: a few large schemas
 * retain as much as many small ones. */
const RECYCLE_AFTER_CHARS = 2 * 1024 * 1024;

function newInstance(draft: Draft): AjvInstance {
  const ajv = new (ajvClass(draft))(AJV_OPTIONS);
  addFormats(ajv);
  return ajv;
}

const instances: Record<Draft, { ajv: AjvInstance | null; uses: number; chars: number }> = {
  'draft-07': { ajv: null, uses: 0, chars: 0 },
  '2019-09': { ajv: null, uses: 0, chars: 0 },
  '2020-12': { ajv: null, uses: 0, chars: 0 },
};

function sharedInstance(draft: Draft, chars: number): AjvInstance {
  const slot = instances[draft];
  if (slot.ajv === null || slot.uses >= RECYCLE_AFTER || slot.chars + chars > RECYCLE_AFTER_CHARS) {
    slot.ajv = newInstance(draft);
    slot.uses = 0;
    slot.chars = 0;
  }
  slot.uses++;
  slot.chars += chars;
  return slot.ajv;
}

/** Draft named by a `$schema` URI. draft-04/06/07 → draft-07 rules; 2019-09; anything else → 2020-12. */
export function draftOf(schemaUri: string | undefined): Draft {
  if (schemaUri === undefined) return '2020-12';
  const uri = schemaUri.toLowerCase();
  if (/draft-0\d/.test(uri)) return 'draft-07';
  if (uri.includes('2019-09')) return '2019-09';
  return '2020-12';
}

// ---------- the cache ----------

export const SCHEMA_CACHE_LIMIT = 2000;
/** Characters of schema text the cache may hold (distinct large schemas must not pile up). */
const SCHEMA_CACHE_CHARS = 2 * 1024 * 1024;

/** Least recently used first out. */
const cache = new TextKeyedCache<CompiledSchema | SchemaError>(SCHEMA_CACHE_CHARS, SCHEMA_CACHE_LIMIT);

/** Number of entries held in the cache (for tests and diagnostics). */
export function schemaCacheSize(): number {
  return cache.size;
}

let compilations = 0;

/** Schemas compiled by Ajv since the process started (for tests: a repeated schema is not compiled again). */
export function schemaCompilations(): number {
  return compilations;
}

/** An object schema's cache key, its JSON text (not the object: callers may reuse and mutate
 * schema objects), or why it has none. */
function schemaKey(schema: JsonSchema): string | SchemaError {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    return { error: 'a schema must be an object or a boolean' };
  }
  try {
    return JSON.stringify(schema);
  } catch (e) {
    return { error: `the schema is not JSON: ${(e as Error).message}` };
  }
}

export function compileSchema(schema: JsonSchema): CompiledSchema | SchemaError {
  if (schema === true) return ALWAYS_VALID;
  if (schema === false) return NEVER_VALID;
  const key = schemaKey(schema);
  if (typeof key !== 'string') return key;
  let result = cache.get(key);
  if (result !== undefined) return result;
  result = compileUncached(key);
  cache.set(key, result);
  return result;
}

/**
 * Most subschemas a schema may have, counted as the objects in it outside data keywords (a
 * `properties` map counts too). Ajv generates code for each,
 * at a cost per subschema that is large and grows with the schema (docs/performance.md), and a
 * compile cannot be interrupted: a larger schema is refused, so that no one schema holds the event
 * loop for long. docs/security.md "Per-request work is bounded".
 */
export const MAX_SUBSCHEMAS = 1000;

function tooLarge(subschemas: number): SchemaError {
  return {
    error: `the schema has ${subschemas} subschemas, more than the ${MAX_SUBSCHEMAS} Understudy compiles (each costs time on the server of every test)`,
  };
}

/**
 * Most tool schemas one request may declare where a dialect checks each declared schema (Anthropic
 * Messages, Gemini): checking costs tens of microseconds per schema, so this bounds a request's
 * checks to tens of milliseconds. OpenAI documents a limit of 128 functions per request.
 */
export const MAX_DECLARED_SCHEMAS = 1000;

/** Validity of schemas only declared so far, by JSON text: null when valid. Bounded by characters. */
const checked = new TextKeyedCache<string | null>(8 * 1024 * 1024);

/**
 * Whether a schema can be compiled, without compiling it: what a request's declared schemas need
 * (most are never validated against). Checks what compileSchema would refuse — not JSON, a
 * non-string `$schema`, an external `$ref`, too many subschemas, a schema its draft's
 * meta-schema rejects, a pattern that is not a regular expression, a local `$ref` that resolves to
 * nothing — in time linear in the schema's size. Anything it cannot settle that way (anchors,
 * nested `$id`s, dynamic references, any problem found, for the exact message) is compiled.
 */
export function checkSchema(schema: JsonSchema): SchemaError | undefined {
  if (schema === true || schema === false) return undefined;
  const key = schemaKey(schema);
  if (typeof key !== 'string') return key;
  const known = cache.peek(key);
  if (known !== undefined) return isSchemaError(known) ? known : undefined;
  const seen = checked.peek(key);
  if (seen !== undefined) return seen === null ? undefined : { error: seen };
  const error = quickCheck(key);
  const result = error === 'compile' ? compileSchema(schema) : error;
  const verdict = result === undefined || !isSchemaError(result) ? null : result.error;
  checked.set(key, verdict);
  return verdict === null ? undefined : { error: verdict };
}

const checkers: Partial<Record<Draft, AjvInstance>> = {};

/** undefined when valid, 'compile' when only compiling can tell (or give the exact message). */
function quickCheck(key: string): SchemaError | undefined | 'compile' {
  const schema = JSON.parse(key) as { [key: string]: unknown };
  const $schema = schema.$schema;
  if ($schema !== undefined && typeof $schema !== 'string') return { error: '$schema must be a string' };
  const scan = scanSchema(schema);
  if (scan.external !== undefined || scan.nestedId || scan.unsure) return 'compile';
  if (scan.subschemas > MAX_SUBSCHEMAS) return tooLarge(scan.subschemas);
  for (const pattern of scan.patterns) {
    try {
      new RegExp(pattern, 'u');
    } catch {
      return 'compile';
    }
  }
  for (const ref of scan.localRefs) if (resolvePointer(schema, ref) === undefined) return 'compile';
  delete schema.$schema;
  delete schema.$id;
  // validateSchema compiles nothing new (the meta-schema's validator is made once per instance), so
  // this instance does not grow and is never recycled.
  const draft = draftOf($schema as string | undefined);
  const ajv = (checkers[draft] ??= newInstance(draft));
  if (ajv.validateSchema(schema) !== true) return 'compile';
  return undefined;
}

/** The value a `#/…` JSON Pointer fragment names in root, or undefined. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  let node = root;
  for (const raw of ref.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

const ALWAYS_VALID: CompiledSchema = {
  validate: () => [],
  problems: () => [],
};
const NEVER_VALID: CompiledSchema = {
  validate: () => ['at (root): the schema is false; no value is allowed'],
  problems: () => [{ path: '', keyword: 'false schema', schemaPath: '#', text: 'at (root): the schema is false; no value is allowed' }],
};

/** Never registered (addUsedSchema is off) and never fetched: only a base for `#` references. */
const ROOT_ID = 'https://understudy.invalid/schema.json';

function compileUncached(key: string): CompiledSchema | SchemaError {
  compilations++;
  // A private deep copy (the text is the cache key): the caller may mutate its object later, and the
  // compiled function keeps references into the schema it was compiled from.
  const schema = JSON.parse(key) as { [key: string]: unknown };
  const $schema = schema.$schema;
  if ($schema !== undefined && typeof $schema !== 'string') {
    return { error: '$schema must be a string' };
  }
  const scan = scanSchema(schema);
  if (scan.external !== undefined) {
    return {
      error: `external $ref "${scan.external}" is not allowed; Understudy never fetches schemas`,
    };
  }
  if (scan.subschemas > MAX_SUBSCHEMAS) return tooLarge(scan.subschemas);
  // Compile without `$schema` (the instance is already the right dialect, and Ajv only knows the
  // exact http:// meta-schema URIs) and with a fixed root `$id` instead of the caller's: every
  // reference allowed here is a fragment of the root document, whose meaning a root `$id` does
  // not change, and without any root `$id` Ajv cannot resolve `$ref: "#"` (what zod emits for a
  // recursive schema) when it does not register compiled schemas.
  delete schema.$schema;
  schema.$id = ROOT_ID;
  const draft = draftOf($schema);
  // Nested `$id`s that are URIs (not `#fragment` anchors) are kept: they make embedded resources,
  // and `#/…` references inside them resolve against that resource. Ajv registers such ids in the
  // instance it compiles with, so these (rare) schemas get an instance of their own, thrown away
  // with the cache entry, instead of polluting the shared one.
  const ajv = scan.nestedId ? newInstance(draft) : sharedInstance(draft, key.length);
  let fn: ValidateFunction;
  try {
    fn = ajv.compile(schema);
  } catch (e) {
    const message = (e as Error).message;
    // Meta-schema failures: Ajv's own text repeats itself under allErrors; say each problem once.
    if (message.startsWith('schema is invalid') && ajv.errors && ajv.errors.length > 0) {
      return {
        error: `schema is invalid: ${describe(ajv.errors)
          .map((p) => p.text)
          .join('; ')}`,
      };
    }
    return { error: message };
  }
  return wrap(fn);
}

function wrap(fn: ValidateFunction): CompiledSchema {
  return {
    validate(value: unknown): string[] {
      if (fn(value)) return [];
      return describe(fn.errors).map((p) => p.text);
    },
    problems(value: unknown): SchemaProblem[] {
      if (fn(value)) return [];
      return describe(fn.errors);
    },
  };
}

// ---------- scanning for references ----------

/** Keywords whose values are data (instances), not schemas; a `$ref` inside them means nothing. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'example']);
const REF_KEYWORDS = ['$ref', '$dynamicRef', '$recursiveRef'];

interface SchemaScan {
  external?: string;
  nestedId: boolean;
  /** Objects in the schema, data keywords (enum, const, default, examples) left out. */
  subschemas: number;
  /** Values of `pattern` and keys of `patternProperties`. */
  patterns: string[];
  /** `$ref`s of the form `#` or `#/…`. */
  localRefs: string[];
  /** Something only a compile can judge: an anchor reference, a dynamic or recursive reference. */
  unsure: boolean;
}

function scanSchema(root: { [key: string]: unknown }): SchemaScan {
  const out: SchemaScan = { nestedId: false, subschemas: 0, patterns: [], localRefs: [], unsure: false };
  const stack: unknown[] = [root];
  while (stack.length > 0 && out.external === undefined) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const item of node) if (item !== null && typeof item === 'object') stack.push(item);
      continue;
    }
    out.subschemas++;
    const obj = node as { [key: string]: unknown };
    for (const kw of REF_KEYWORDS) {
      const ref = obj[kw];
      if (typeof ref === 'string' && !ref.startsWith('#')) {
        out.external = ref;
        return out;
      }
      if (typeof ref === 'string') {
        if (kw === '$ref' && (ref === '#' || ref.startsWith('#/'))) out.localRefs.push(ref);
        else out.unsure = true;
      }
    }
    if (obj !== root) {
      const id = obj.$id;
      if (typeof id === 'string' && !id.startsWith('#')) out.nestedId = true;
    }
    if (typeof obj.pattern === 'string') out.patterns.push(obj.pattern);
    const patternProperties = obj.patternProperties;
    if (patternProperties !== null && typeof patternProperties === 'object') {
      for (const pattern of Object.keys(patternProperties)) out.patterns.push(pattern);
    }
    for (const k of Object.keys(obj)) {
      if (DATA_KEYWORDS.has(k)) continue;
      const v = obj[k];
      if (v !== null && typeof v === 'object') stack.push(v);
    }
  }
  return out;
}

// ---------- error text ----------

function describe(errors: ErrorObject[] | null | undefined): SchemaProblem[] {
  if (!errors || errors.length === 0) {
    return [{ path: '', keyword: 'unknown', schemaPath: '#', text: 'at (root): does not match the schema' }];
  }
  const out: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const text = `at ${e.instancePath === '' ? '(root)' : e.instancePath}: ${messageOf(e)}`;
    if (seen.has(text)) continue;
    seen.add(text);
    out.push({ path: e.instancePath, keyword: e.keyword, schemaPath: e.schemaPath, text });
  }
  return out;
}

function messageOf(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  const message = e.message ?? `fails "${e.keyword}"`;
  switch (e.keyword) {
    case 'enum':
      if (Array.isArray(params.allowedValues)) {
        return `${message}: ${params.allowedValues.map(show).join(', ')}`;
      }
      return message;
    case 'const':
      return `${message} ${compactJson(params.allowedValue)}`;
    case 'additionalProperties':
      return typeof params.additionalProperty === 'string' ? `${message} ('${params.additionalProperty}')` : message;
    case 'unevaluatedProperties':
      return typeof params.unevaluatedProperty === 'string' ? `${message} ('${params.unevaluatedProperty}')` : message;
    default:
      return message;
  }
}

function show(v: unknown): string {
  return typeof v === 'string' ? v : compactJson(v);
}

function compactJson(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s;
}

// ---------- JSON helpers ----------

export function parseJson(text: string): { ok: true; value: JsonValue } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/** Structural JSON equality: object key order is irrelevant, array order matters, numbers by value.
 * Object members whose value is undefined count as absent (as in JSON.stringify). */
export function jsonEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const aArr = Array.isArray(a);
  if (aArr !== Array.isArray(b)) return false;
  if (aArr) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!jsonEquals(x[i], y[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let countX = 0;
  for (const k of Object.keys(x)) {
    if (x[k] === undefined) continue;
    countX++;
    if (!Object.prototype.hasOwnProperty.call(y, k) || !jsonEquals(x[k], y[k])) return false;
  }
  let countY = 0;
  for (const k of Object.keys(y)) if (y[k] !== undefined) countY++;
  return countX === countY;
}
