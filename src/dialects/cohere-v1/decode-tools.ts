// v1 `tools`: `{name, description, parameter_definitions?: {param: {type, description?,
// required?}}}`. Each becomes a JSON schema of an object with exactly the declared parameters:
// each one's `type` read as a JSON Schema type where it names one (Cohere writes Python's `str`,
// `int`, `float`, `bool`, `list`, `dict`, `List[str]`…, LangChain JSON Schema's), any value where
// it does not; `required: true` parameters required. A tool without definitions takes any object. A definition's other members are JSON
// Schema the application declared (LangChain sends each property's whole schema): they are kept,
// so the contract check holds a scripted call to them.

import type { JsonSchema, ToolDefinition } from '../../core/model.js';
import { MAX_DECLARED_SCHEMAS } from '../../core/schema.js';
import { usableSchema } from '../cohere/usable-schema.js';
import { expectArray, expectBoolean, expectObject, expectString, fail, requiredMember } from '../cohere/wording.js';
import { given } from '../wire-kit/values.js';

const TYPES: Record<string, string> = {
  str: 'string',
  string: 'string',
  int: 'integer',
  integer: 'integer',
  float: 'number',
  number: 'number',
  bool: 'boolean',
  boolean: 'boolean',
  list: 'array',
  array: 'array',
  dict: 'object',
  object: 'object',
};

/** `List[str]` is a list, `Dict[str, int]` an object; a name Understudy does not know says nothing. */
function jsonType(type: string): string | undefined {
  const bare = type.trim().toLowerCase();
  const head = bare.includes('[') ? bare.slice(0, bare.indexOf('[')) : bare;
  return TYPES[head];
}

function parametersSchema(raw: unknown, path: string): JsonSchema {
  // Without definitions v1 cannot say what the tool takes: its arguments are not checked.
  if (!given(raw)) return { type: 'object' };
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  const definitions = expectObject(raw, path);
  for (const [name, value] of Object.entries(definitions)) {
    const at = `${path}.${name}`;
    const definition = expectObject(value, at);
    const type = jsonType(expectString(requiredMember(definition, 'type', at), `${at}.type`));
    const description = given(definition.description) ? expectString(definition.description, `${at}.description`) : undefined;
    if (given(definition.required) && expectBoolean(definition.required, `${at}.required`)) required.push(name);
    const { type: _type, required: _required, description: _description, ...rest } = definition;
    properties[name] = { ...rest, ...(type !== undefined && { type }), ...(description !== undefined && { description }) };
  }
  const schema = { type: 'object', properties, ...(required.length > 0 && { required }), additionalProperties: false };
  usableSchema(schema, path);
  return schema;
}

export function decodeTools(raw: unknown): ToolDefinition[] {
  if (!given(raw)) return [];
  const declared = expectArray(raw, 'tools');
  if (declared.length > MAX_DECLARED_SCHEMAS) {
    fail(
      'tools',
      `Understudy checks the schemas of at most ${MAX_DECLARED_SCHEMAS} tools per request; this request declares ${declared.length}`,
    );
  }
  const names = new Set<string>();
  return declared.map((rawTool, i): ToolDefinition => {
    const path = `tools.${i}`;
    const tool = expectObject(rawTool, path);
    const name = expectString(requiredMember(tool, 'name', path), `${path}.name`);
    if (name === '') fail(`${path}.name`, `${path}.name must not be empty`);
    if (names.has(name)) fail('tools', `tool names must be unique, '${name}' is declared twice`);
    names.add(name);
    const description = expectString(requiredMember(tool, 'description', path), `${path}.description`);
    const parameters = parametersSchema(tool.parameter_definitions, `${path}.parameter_definitions`);
    return { name, description, parameters };
  });
}
