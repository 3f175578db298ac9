// `tools` and `toolConfig`: function declarations only (Google's hosted tools are refused with a
// reason), each with a usable schema and a name of its own, and the calling mode as a neutral
// tool choice.

import type { JsonSchema, ToolChoice, ToolDefinition } from '../../core/model.js';
import { checkSchema, MAX_DECLARED_SCHEMAS } from '../../core/schema.js';
import { isObject } from '../wire-kit/values.js';
import { describesObject, normalizeOpenApiSchema } from './normalize-schema.js';
import { field, onlyKnownFields, snake, unset } from './proto-fields.js';
import { checkMessage, RETRIEVAL_CONFIG } from './proto-members.js';
import { expectArray, expectBoolean, expectEnum, expectObject, expectString, fieldRule, requestRule, unsupported } from './wording.js';

/** Tools Google runs on its side; a stand-in cannot, so they are refused with a reason. */
const HOSTED_TOOLS = [
  'googleSearch',
  'googleSearchRetrieval',
  'codeExecution',
  'urlContext',
  'retrieval',
  'fileSearch',
  'googleMaps',
  'computerUse',
  'enterpriseWebSearch',
  'mcpServers',
] as const;
const TOOL_FIELDS = new Set<string>(['functionDeclarations', ...HOSTED_TOOLS]);
const DECLARATION_FIELDS = new Set([
  'name',
  'description',
  'parameters',
  'parametersJsonSchema',
  'response',
  'responseJsonSchema',
  'behavior',
]);
const TOOL_CONFIG_FIELDS = new Set(['functionCallingConfig', 'retrievalConfig', 'includeServerSideToolInvocations']);
const FUNCTION_CALLING_FIELDS = new Set(['mode', 'allowedFunctionNames', 'streamFunctionCallArguments']);
const MODES = ['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED'] as const;
const MODE_ENUM = 'type.googleapis.com/google.ai.generativelanguage.v1beta.FunctionCallingConfig.Mode';
const BEHAVIORS = ['UNSPECIFIED', 'BLOCKING', 'NON_BLOCKING'] as const;
const FUNCTION_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;
const FUNCTION_NAME_RULE =
  'Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.';

export function checkCompiles(schema: JsonSchema, at: string): void {
  // Checked, not compiled: most declared schemas are never validated against (core/schema.ts).
  const invalid = checkSchema(schema);
  if (invalid) fieldRule(at, `the schema cannot be used: ${invalid.error}`);
}

function decodeDeclaration(raw: unknown, at: string): ToolDefinition {
  const decl = expectObject(raw, at);
  onlyKnownFields(decl, DECLARATION_FIELDS, at);
  const name = field(decl, 'name');
  if (unset(name) || name === '') fieldRule(`${at}.name`, 'name is required');
  expectString(name, `${at}.name`);
  if (!FUNCTION_NAME.test(name as string)) {
    fieldRule(`${at}.name`, FUNCTION_NAME_RULE);
  }
  const description = field(decl, 'description');
  if (!unset(description)) expectString(description, `${at}.description`);
  const behavior = field(decl, 'behavior');
  if (!unset(behavior))
    expectEnum(
      behavior,
      BEHAVIORS,
      `${at}.behavior`,
      'type.googleapis.com/google.ai.generativelanguage.v1beta.FunctionDeclaration.Behavior',
    );

  const parameters = field(decl, 'parameters');
  const jsonParameters = field(decl, 'parametersJsonSchema');
  if (!unset(parameters) && !unset(jsonParameters)) {
    fieldRule(`${at}.parameters_json_schema`, 'parameters and parameters_json_schema are mutually exclusive; set only one');
  }
  let schema: JsonSchema = { type: 'object', properties: {} };
  if (!unset(parameters)) {
    const normalized = normalizeOpenApiSchema(parameters, `${at}.parameters`) as Record<string, unknown>;
    if (!describesObject(normalized)) fieldRule(`${at}.parameters.type`, 'the parameters schema must be of type OBJECT');
    checkCompiles(normalized, `${at}.parameters`);
    schema = normalized;
  } else if (!unset(jsonParameters)) {
    if (!isObject(jsonParameters))
      fieldRule(`${at}.parameters_json_schema`, 'must be a JSON Schema object describing the arguments object');
    if (!describesObject(jsonParameters)) fieldRule(`${at}.parameters_json_schema`, 'the schema must describe an object (type "object")');
    checkCompiles(jsonParameters, `${at}.parameters_json_schema`);
    schema = jsonParameters;
  }

  const response = field(decl, 'response');
  const jsonResponse = field(decl, 'responseJsonSchema');
  if (!unset(response) && !unset(jsonResponse)) {
    fieldRule(`${at}.response_json_schema`, 'response and response_json_schema are mutually exclusive; set only one');
  }
  if (!unset(response)) normalizeOpenApiSchema(response, `${at}.response`);

  return { name: name as string, ...(typeof description === 'string' && { description }), parameters: schema };
}

export function decodeTools(raw: unknown): ToolDefinition[] {
  if (unset(raw)) return [];
  const list = expectArray(raw, 'tools');
  const tools: ToolDefinition[] = [];
  const seen = new Set<string>();
  list.forEach((rawTool, i) => {
    const at = `tools[${i}]`;
    const tool = expectObject(rawTool, at);
    onlyKnownFields(tool, TOOL_FIELDS, at);
    for (const hosted of HOSTED_TOOLS) {
      if (!unset(field(tool, hosted))) {
        unsupported(
          `${at}.${snake(hosted)}`,
          `Understudy does not run Gemini's built-in tool "${hosted}" (it runs on Google's side); declare a function in functionDeclarations and script its call instead.`,
        );
      }
    }
    const declarations = field(tool, 'functionDeclarations');
    if (unset(declarations)) return;
    const path = `${at}.function_declarations`;
    const listed = expectArray(declarations, path);
    if (tools.length + listed.length > MAX_DECLARED_SCHEMAS) {
      fieldRule(path, `Understudy checks the schemas of at most ${MAX_DECLARED_SCHEMAS} function declarations per request`);
    }
    listed.forEach((rawDecl, k) => {
      const declaration = decodeDeclaration(rawDecl, `${path}[${k}]`);
      if (seen.has(declaration.name)) requestRule(`Duplicate function declaration found: ${declaration.name}`);
      seen.add(declaration.name);
      tools.push(declaration);
    });
  });
  return tools;
}

export function decodeToolConfig(raw: unknown, declared: ToolDefinition[]): { toolChoice: ToolChoice; tools: ToolDefinition[] } {
  const auto = { toolChoice: { type: 'auto' } as ToolChoice, tools: declared };
  if (unset(raw)) return auto;
  const config = expectObject(raw, 'tool_config');
  onlyKnownFields(config, TOOL_CONFIG_FIELDS, 'tool_config');
  const retrieval = field(config, 'retrievalConfig');
  if (!unset(retrieval)) checkMessage(retrieval, 'tool_config.retrieval_config', RETRIEVAL_CONFIG);
  const serverSide = field(config, 'includeServerSideToolInvocations');
  if (!unset(serverSide)) expectBoolean(serverSide, 'tool_config.include_server_side_tool_invocations');
  const fcc = field(config, 'functionCallingConfig');
  if (unset(fcc)) return auto;
  const at = 'tool_config.function_calling_config';
  const calling = expectObject(fcc, at);
  onlyKnownFields(calling, FUNCTION_CALLING_FIELDS, at);
  const rawMode = field(calling, 'mode');
  const mode = unset(rawMode) ? 'MODE_UNSPECIFIED' : expectEnum(rawMode, MODES, `${at}.mode`, MODE_ENUM);
  const streamArgs = field(calling, 'streamFunctionCallArguments');
  if (!unset(streamArgs)) expectBoolean(streamArgs, `${at}.stream_function_call_arguments`);

  let allowed: string[] | undefined;
  const rawNames = field(calling, 'allowedFunctionNames');
  if (!unset(rawNames)) {
    const path = `${at}.allowed_function_names`;
    const names = expectArray(rawNames, path).map((n, k) => expectString(n, `${path}[${k}]`));
    if (names.length > 0) {
      if (mode !== 'ANY' && mode !== 'VALIDATED') fieldRule(path, `may only be set when mode is ANY or VALIDATED (mode is ${mode})`);
      names.forEach((n, k) => {
        if (!declared.some((t) => t.name === n)) {
          fieldRule(`${path}[${k}]`, `function "${n}" is not declared in tools[].function_declarations`);
        }
      });
      allowed = names;
    }
  }
  if ((mode === 'ANY' || mode === 'VALIDATED') && declared.length === 0) {
    fieldRule(`${at}.mode`, `mode ${mode} needs at least one function declaration in tools`);
  }
  // The neutral request lists the functions the model may call: with allowed names, only those.
  const tools = allowed ? declared.filter((t) => allowed.includes(t.name)) : declared;
  switch (mode) {
    case 'NONE':
      return { toolChoice: { type: 'none' }, tools: declared };
    case 'ANY':
      return { toolChoice: tools.length === 1 && allowed ? { type: 'named', name: tools[0].name } : { type: 'required' }, tools };
    case 'VALIDATED':
      return { toolChoice: { type: 'auto' }, tools };
    default:
      return auto;
  }
}
