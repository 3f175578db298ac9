// `toolConfig`: the declared tools (toolSpec with a JSON Schema, cache points between them; Bedrock's
// system tools are refused, as Understudy runs none) and `toolChoice` — auto, any (a tool must be
// called) or one named tool — as the neutral tool choice the contract check enforces.

import type { ToolChoice, ToolDefinition } from '../../core/model.js';
import { checkSchema, MAX_DECLARED_SCHEMAS } from '../../core/schema.js';
import { given, isObject } from '../wire-kit/values.js';
import {
  constraint,
  element,
  expectArray,
  expectBoolean,
  expectLength,
  expectObject,
  expectString,
  fail,
  onlyMembers,
  requiredMember,
  unionMember,
} from '../bedrock/wording.js';
import { cachePoint } from './decode-blocks.js';
import type { Scope } from './decode-scope.js';

const TOOL_CONFIG_MEMBERS = new Set(['tools', 'toolChoice']);
const TOOL_SPEC_MEMBERS = new Set(['name', 'inputSchema', 'description', 'strict']);
const TOOL_NAME = /^[a-zA-Z0-9_-]+$/;
const TOOL_NAME_LENGTH = { min: 1, max: 64 };
const DESCRIPTION_LENGTH = { min: 1 };
const EMPTY = new Set<string>();

export interface DecodedTools {
  tools: ToolDefinition[];
  choice: ToolChoice;
}

const NO_TOOLS: DecodedTools = { tools: [], choice: { type: 'auto' } };

/** A declared JSON Schema Understudy can use (it is checked, not compiled: most are never validated against). */
export function usableSchema(schema: Record<string, unknown>, path: string): void {
  const invalid = checkSchema(schema);
  if (invalid) fail(path, `The JSON schema at ${path} is invalid: ${invalid.error}`);
}

function toolSpec(raw: unknown, path: string): ToolDefinition {
  const spec = expectObject(raw, path);
  onlyMembers(spec, TOOL_SPEC_MEMBERS, path);
  const name = expectLength(expectString(requiredMember(spec, 'name', path), `${path}.name`), `${path}.name`, TOOL_NAME_LENGTH);
  if (!TOOL_NAME.test(name)) constraint(`${path}.name`, name, 'Member must satisfy regular expression pattern: ^[a-zA-Z0-9_-]+$');
  const description = given(spec.description)
    ? expectLength(expectString(spec.description, `${path}.description`), `${path}.description`, DESCRIPTION_LENGTH)
    : undefined;
  const at = `${path}.inputSchema`;
  const inputSchema = expectObject(requiredMember(spec, 'inputSchema', path), at);
  unionMember(inputSchema, ['json'], at);
  const schema = expectObject(inputSchema.json, `${at}.json`);
  if (schema.type !== 'object') fail(`${at}.json.type`, `The value at ${at}.json.type must be one of the following: object.`);
  usableSchema(schema, `${at}.json`);
  const strict = given(spec.strict) ? expectBoolean(spec.strict, `${path}.strict`) : undefined;
  return { name, description, parameters: schema, strict };
}

function toolChoice(raw: unknown, tools: ToolDefinition[]): ToolChoice {
  if (!given(raw)) return { type: 'auto' };
  const choice = expectObject(raw, 'toolConfig.toolChoice');
  const kind = unionMember(choice, ['auto', 'any', 'tool'], 'toolConfig.toolChoice');
  const at = `toolConfig.toolChoice.${kind}`;
  const value = expectObject(choice[kind], at);
  if (kind !== 'tool') {
    onlyMembers(value, EMPTY, at);
    return { type: kind === 'any' ? 'required' : 'auto' };
  }
  onlyMembers(value, new Set(['name']), at);
  const name = expectLength(expectString(requiredMember(value, 'name', at), `${at}.name`), `${at}.name`, TOOL_NAME_LENGTH);
  if (!tools.some((t) => t.name === name)) fail(`${at}.name`, `The tool ${name} named in toolChoice is not defined in toolConfig.tools.`);
  return { type: 'named', name };
}

export function decodeToolConfig(raw: unknown, scope: Scope): DecodedTools {
  if (!given(raw)) return NO_TOOLS;
  const config = expectObject(raw, 'toolConfig');
  onlyMembers(config, TOOL_CONFIG_MEMBERS, 'toolConfig');
  const declared = expectArray(requiredMember(config, 'tools', 'toolConfig'), 'toolConfig.tools');
  expectLength(declared, 'toolConfig.tools', { min: 1 });
  if (declared.length > MAX_DECLARED_SCHEMAS) {
    fail(
      'toolConfig.tools',
      `Understudy checks the schemas of at most ${MAX_DECLARED_SCHEMAS} tools per request; this request declares ${declared.length}`,
    );
  }
  const tools: ToolDefinition[] = [];
  const names = new Set<string>();
  declared.forEach((rawTool, i) => {
    const path = element('toolConfig.tools', i);
    const tool = expectObject(rawTool, path);
    const kind = unionMember(tool, ['toolSpec', 'systemTool', 'cachePoint'], path);
    if (kind === 'cachePoint') return cachePoint(tool.cachePoint, `${path}.cachePoint`, scope);
    if (kind === 'systemTool') {
      const name = isObject(tool.systemTool) ? String(tool.systemTool.name) : '';
      fail(
        `${path}.systemTool`,
        `Understudy does not run Bedrock's system tools (${name}); declare a toolSpec with an inputSchema instead.`,
      );
    }
    const spec = toolSpec(tool.toolSpec, `${path}.toolSpec`);
    if (names.has(spec.name))
      fail(`${path}.toolSpec.name`, `The tool name ${spec.name} is used more than once in toolConfig.tools. Tool names must be unique.`);
    names.add(spec.name);
    tools.push(spec);
  });
  return { tools, choice: toolChoice(config.toolChoice, tools) };
}
