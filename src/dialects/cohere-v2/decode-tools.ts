// `tools` (each `{type:"function", function:{name, description?, parameters}}`), `strict_tools`,
// `tool_choice` (REQUIRED or NONE: Cohere has no way to name one tool) and `response_format`
// (`text`, or `json_object` with an optional `json_schema`).

import type { OutputFormat, ToolChoice, ToolDefinition } from '../../core/model.js';
import { MAX_DECLARED_SCHEMAS } from '../../core/schema.js';
import { usableSchema } from '../cohere/usable-schema.js';
import { given } from '../wire-kit/values.js';
import { expectEnum, expectObject, expectString, expectArray, fail, requiredMember } from '../cohere/wording.js';

export function decodeTools(raw: unknown, strict: boolean | undefined): ToolDefinition[] {
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
    expectEnum(requiredMember(tool, 'type', path), ['function'], `${path}.type`);
    const fn = expectObject(requiredMember(tool, 'function', path), `${path}.function`);
    const name = expectString(requiredMember(fn, 'name', `${path}.function`), `${path}.function.name`);
    if (name === '') fail(`${path}.function.name`, `${path}.function.name must not be empty`);
    if (names.has(name)) fail('tools', `tool names must be unique, '${name}' is declared twice`);
    names.add(name);
    const description = given(fn.description) ? expectString(fn.description, `${path}.function.description`) : undefined;
    const parameters = expectObject(requiredMember(fn, 'parameters', `${path}.function`), `${path}.function.parameters`);
    usableSchema(parameters, `${path}.function.parameters`);
    return { name, description, parameters, ...(strict !== undefined && { strict }) };
  });
}

export function decodeToolChoice(raw: unknown, tools: ToolDefinition[]): ToolChoice {
  if (!given(raw)) return { type: 'auto' };
  const choice = expectEnum(raw, ['REQUIRED', 'NONE'], 'tool_choice');
  if (tools.length === 0) fail('tool_choice', 'tool_choice can only be used with tools');
  return choice === 'REQUIRED' ? { type: 'required' } : { type: 'none' };
}

export function decodeResponseFormat(raw: unknown, documents: boolean): OutputFormat {
  if (!given(raw)) return { type: 'text' };
  const format = expectObject(raw, 'response_format');
  const type = expectEnum(requiredMember(format, 'type', 'response_format'), ['text', 'json_object'], 'response_format.type');
  if (type === 'text') return { type: 'text' };
  // Cohere's own sentence: JSON output and documents (RAG) do not go together.
  if (documents) fail('response_format', 'response_format is not supported with RAG.');
  if (!given(format.json_schema)) return { type: 'json_object' };
  const schema = expectObject(format.json_schema, 'response_format.json_schema');
  usableSchema(schema, 'response_format.json_schema');
  return { type: 'json_schema', schema, strict: true };
}
