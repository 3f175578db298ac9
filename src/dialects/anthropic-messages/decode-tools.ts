// `tools` and `tool_choice`: custom tools only (Anthropic's server and built-in tools are refused
// with a reason), each with a usable input schema and a name of its own.

import type { ToolChoice, ToolDefinition } from '../../core/model.js';
import { checkSchema as checkDeclaredSchema, MAX_DECLARED_SCHEMAS } from '../../core/schema.js';
import { cacheControl } from './cache-control.js';
import { given } from '../wire-kit/values.js';
import { expectArray, expectBoolean, expectObject, expectString, fail, requiredMember, tag } from './wording.js';

/** Type prefixes of Anthropic's server tools and Anthropic-defined client tools. */
const BUILT_IN_TOOL = /^(web_search|web_fetch|code_execution|bash|text_editor|computer|memory|tool_search_tool|browser|mcp)/;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

/** A declared schema (a tool's input schema, an output format) must be one Understudy can use. */
export function checkSchema(schema: Record<string, unknown>, path: string): void {
  // Checked, not compiled: most declared schemas are never validated against (core/schema.ts).
  const invalid = checkDeclaredSchema(schema);
  if (invalid) fail(path, `JSON schema is invalid: ${invalid.error}`);
}

export function decodeTools(raw: unknown): ToolDefinition[] {
  if (!given(raw)) return [];
  const names = new Set<string>();
  const declared = expectArray(raw, 'tools');
  if (declared.length > MAX_DECLARED_SCHEMAS) {
    fail(
      'tools',
      `Understudy checks the schemas of at most ${MAX_DECLARED_SCHEMAS} tools per request; this request declares ${declared.length}`,
    );
  }
  const tools = declared.map((rawTool, i): ToolDefinition => {
    const path = `tools.${i}`;
    const tool = expectObject(rawTool, path);
    const type = tool.type;
    if (given(type) && type !== 'custom') {
      if (typeof type === 'string' && BUILT_IN_TOOL.test(type)) {
        fail(
          path,
          `Understudy does not support Anthropic's server and built-in tools (type '${type}'); declare a custom tool with a name and an input_schema`,
        );
      }
      fail(path, `Input tag '${String(type)}' found using 'type' does not match any of the expected tags: 'custom'`);
    }
    const at = `${path}.custom`;
    const name = expectString(requiredMember(tool, 'name', at), `${at}.name`);
    if (!TOOL_NAME.test(name)) fail(`${at}.name`, "String should match pattern '^[a-zA-Z0-9_-]{1,128}$'");
    const description = !given(tool.description) ? undefined : expectString(tool.description, `${at}.description`);
    const schema = expectObject(requiredMember(tool, 'input_schema', at), `${at}.input_schema`);
    if (schema.type !== 'object') fail(`${at}.input_schema.type`, "Input should be 'object'");
    checkSchema(schema, `${at}.input_schema`);
    cacheControl(tool.cache_control, `${at}.cache_control`);
    const strict = !given(tool.strict) ? undefined : expectBoolean(tool.strict, `${at}.strict`);
    for (const key of ['eager_input_streaming', 'defer_loading'] as const) if (given(tool[key])) expectBoolean(tool[key], `${at}.${key}`);
    if (given(tool.input_examples)) expectArray(tool.input_examples, `${at}.input_examples`);
    names.add(name);
    return { name, description, parameters: schema, strict };
  });
  if (names.size !== tools.length) fail('tools', 'Tool names must be unique.');
  return tools;
}

export function decodeToolChoice(raw: unknown, tools: ToolDefinition[]): { choice: ToolChoice; parallel: boolean } {
  if (!given(raw)) return { choice: { type: 'auto' }, parallel: true };
  const c = expectObject(raw, 'tool_choice');
  const type = tag(c, ['auto', 'any', 'tool', 'none'], 'tool_choice');
  const parallel =
    type === 'none' || !given(c.disable_parallel_tool_use)
      ? true
      : !expectBoolean(c.disable_parallel_tool_use, `tool_choice.${type}.disable_parallel_tool_use`);
  switch (type) {
    case 'any':
      if (tools.length === 0) fail('tool_choice', "tool_choice 'any' requires at least one tool in 'tools'");
      return { choice: { type: 'required' }, parallel };
    case 'tool': {
      const name = expectString(requiredMember(c, 'name', 'tool_choice.tool'), 'tool_choice.tool.name');
      if (!tools.some((t) => t.name === name)) fail('tool_choice.tool.name', `tool '${name}' is not among the tools declared in 'tools'`);
      return { choice: { type: 'named', name }, parallel };
    }
    case 'none':
      return { choice: { type: 'none' }, parallel };
    default:
      return { choice: { type: 'auto' }, parallel };
  }
}
