// OpenAI's Structured Outputs rules for a schema sent with `strict: true`: every object schema
// must close itself (`additionalProperties: false`) and require every property it declares. The
// API refuses a strict schema that breaks them, naming the place as a Python tuple of the path
// (`In context=('properties', 'address')`), so a client that would be refused by OpenAI is
// refused here too.

/** Keywords whose values are instances, not schemas. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'example']);
/** Keywords holding one subschema. */
const ONE = ['items', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else'];
/** Keywords holding a list of subschemas. */
const MANY = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keywords holding a map of subschemas. */
const MAP = ['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas'];

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `()`, `('properties',)`, `('properties', 'city')` — Python's tuple repr, as the API prints it. */
function context(path: readonly string[]): string {
  if (path.length === 0) return '()';
  const items = path.map((p) => `'${p}'`);
  return path.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
}

function describesObject(schema: Schema): boolean {
  const type = schema.type;
  return type === 'object' || (Array.isArray(type) && type.includes('object')) || isSchema(schema.properties);
}

function problemAt(schema: Schema, path: string[]): string | null {
  if (describesObject(schema)) {
    if (schema.additionalProperties !== false) {
      return `In context=${context(path)}, 'additionalProperties' is required to be supplied and to be false.`;
    }
    const keys = isSchema(schema.properties) ? Object.keys(schema.properties) : [];
    const required = Array.isArray(schema.required) ? schema.required : undefined;
    // An object without properties needs no `required` (which would be empty).
    const missing = keys.find((k) => !required?.includes(k));
    if (missing !== undefined) {
      return `In context=${context(path)}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`;
    }
  }
  for (const key in schema) {
    if (DATA_KEYWORDS.has(key)) continue;
    const value = schema[key];
    if (ONE.includes(key) && isSchema(value)) {
      const found = problemAt(value, [...path, key]);
      if (found) return found;
    } else if (MANY.includes(key) && Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        if (!isSchema(value[i])) continue;
        const found = problemAt(value[i] as Schema, [...path, key, String(i)]);
        if (found) return found;
      }
    } else if (MAP.includes(key) && isSchema(value)) {
      for (const name in value) {
        const sub = value[name];
        if (!isSchema(sub)) continue;
        const found = problemAt(sub, [...path, key, name]);
        if (found) return found;
      }
    }
  }
  return null;
}

/** The first Structured Outputs rule the schema breaks, in OpenAI's words; null when it keeps them all. */
export function strictSchemaProblem(schema: Schema): string | null {
  return problemAt(schema, []);
}
