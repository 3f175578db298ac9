// Checks a generateContent / streamGenerateContent body the way Gemini's front end does and
// decodes it into the neutral ChatRequest. The model comes from the path, streaming from the
// method, the stream's framing from `?alt=`.
//
// Turns map as the SDKs map them: a `model` turn is the assistant; a `user` turn's function
// responses become a tool message (and its other parts a user message after it). Gemini often
// sends no function-call ids; the neutral request needs them, so a call without one gets
// `<name>@<content index>.<part index>`, and a response without one takes the id of the first
// unanswered call of the same name in the turn before it.

import { invalidRequest, type NeutralError } from '../../core/errors.js';
import type {
  ChatRequest,
  JsonSchema,
  JsonValue,
  Message,
  OutputFormat,
  Part,
  ToolCallPart,
  ToolChoice,
  ToolDefinition,
} from '../../core/model.js';
import { checkSchema, MAX_DECLARED_SCHEMAS } from '../../core/schema.js';
import type { WireContext } from '../dialect.js';
import {
  expectArray,
  expectBool,
  expectEnum,
  expectInteger,
  expectNumber,
  expectObject,
  expectString,
  field,
  fieldRule,
  GeminiWireError,
  invalidValue,
  isObject,
  onlyKnownFields,
  requestRule,
  snake,
  unset,
  unsupported,
} from './invalid-request.js';
import { describesObject, normalizeOpenApiSchema } from './normalize-schema.js';

// ---------- the fields the front end knows ----------

const REQUEST_FIELDS = new Set([
  'model',
  'contents',
  'systemInstruction',
  'tools',
  'toolConfig',
  'generationConfig',
  'safetySettings',
  'cachedContent',
  'labels',
  'serviceTier',
  'store',
  'continuationToken',
  'modelArmorConfig',
]);
const CONTENT_FIELDS = new Set(['role', 'parts']);
const PART_FIELDS = new Set([
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
  'toolCall',
  'toolResponse',
  'thought',
  'thoughtSignature',
  'videoMetadata',
  'mediaResolution',
  'partMetadata',
]);
/** The members of a part's `data` oneof: exactly one may be set. */
const DATA_FIELDS = [
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
  'toolCall',
  'toolResponse',
] as const;
const BLOB_FIELDS = new Set(['mimeType', 'data', 'displayName']);
const FILE_DATA_FIELDS = new Set(['mimeType', 'fileUri', 'displayName']);
const FUNCTION_CALL_FIELDS = new Set(['id', 'name', 'args', 'partialArgs', 'willContinue']);
const FUNCTION_RESPONSE_FIELDS = new Set(['id', 'name', 'response', 'parts', 'willContinue', 'scheduling']);
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
const GENERATION_FIELDS = new Set([
  'temperature',
  'topP',
  'topK',
  'candidateCount',
  'maxOutputTokens',
  'stopSequences',
  'responseLogprobs',
  'logprobs',
  'presencePenalty',
  'frequencyPenalty',
  'seed',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'responseModalities',
  'mediaResolution',
  'speechConfig',
  'thinkingConfig',
  'audioTranscriptionConfig',
  'imageConfig',
  'enableEnhancedCivicAnswers',
  // Vertex AI only, accepted on both.
  'routingConfig',
  'modelConfig',
  'audioTimestamp',
  'enableAffectiveDialog',
  'responseFormat',
  'translationConfig',
]);
const THINKING_FIELDS = new Set(['thinkingBudget', 'includeThoughts', 'thinkingLevel']);
const SAFETY_FIELDS = new Set(['category', 'threshold', 'method']);
const ENUM = 'type.googleapis.com/google.ai.generativelanguage.v1beta.';
const HARM_CATEGORIES = [
  'HARM_CATEGORY_UNSPECIFIED',
  'HARM_CATEGORY_DEROGATORY',
  'HARM_CATEGORY_TOXICITY',
  'HARM_CATEGORY_VIOLENCE',
  'HARM_CATEGORY_SEXUAL',
  'HARM_CATEGORY_MEDICAL',
  'HARM_CATEGORY_DANGEROUS',
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_CIVIC_INTEGRITY',
  'HARM_CATEGORY_JAILBREAK',
  'HARM_CATEGORY_IMAGE_HATE',
  'HARM_CATEGORY_IMAGE_DANGEROUS_CONTENT',
  'HARM_CATEGORY_IMAGE_HARASSMENT',
  'HARM_CATEGORY_IMAGE_SEXUALLY_EXPLICIT',
] as const;
const HARM_THRESHOLDS = [
  'HARM_BLOCK_THRESHOLD_UNSPECIFIED',
  'BLOCK_LOW_AND_ABOVE',
  'BLOCK_MEDIUM_AND_ABOVE',
  'BLOCK_ONLY_HIGH',
  'BLOCK_NONE',
  'OFF',
] as const;
const HARM_METHODS = ['HARM_BLOCK_METHOD_UNSPECIFIED', 'SEVERITY', 'PROBABILITY'] as const;
const THINKING_LEVELS = ['THINKING_LEVEL_UNSPECIFIED', 'MINIMAL', 'LOW', 'MEDIUM', 'HIGH'] as const;
const MEDIA_RESOLUTIONS = [
  'MEDIA_RESOLUTION_UNSPECIFIED',
  'MEDIA_RESOLUTION_LOW',
  'MEDIA_RESOLUTION_MEDIUM',
  'MEDIA_RESOLUTION_HIGH',
] as const;

/** generationConfig's numbers: their proto type and documented range (an absent bound is open). */
const GENERATION_NUMBERS: Readonly<Record<string, readonly ['TYPE_FLOAT' | 'TYPE_INT32', number | undefined, number | undefined]>> = {
  temperature: ['TYPE_FLOAT', 0, 2],
  topP: ['TYPE_FLOAT', 0, 1],
  presencePenalty: ['TYPE_FLOAT', -2, 2],
  frequencyPenalty: ['TYPE_FLOAT', -2, 2],
  topK: ['TYPE_INT32', 1, undefined],
  seed: ['TYPE_INT32', undefined, undefined],
  logprobs: ['TYPE_INT32', 0, 20],
  maxOutputTokens: ['TYPE_INT32', 0, undefined],
};

function inRange(n: number, at: string, min: number | undefined, max: number | undefined): void {
  if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
    const range = max === undefined ? `at least ${min}` : min === undefined ? `at most ${max}` : `in the range [${min}, ${max}]`;
    fieldRule(at, `${at.slice(at.lastIndexOf('.') + 1)} must be ${range} (got ${n})`);
  }
}
const MIME_TYPES = ['text/plain', 'application/json', 'text/x.enum', 'application/xml', 'application/yaml'];
const MODALITIES = ['MODALITY_UNSPECIFIED', 'TEXT', 'IMAGE', 'AUDIO'] as const;
const BEHAVIORS = ['UNSPECIFIED', 'BLOCKING', 'NON_BLOCKING'] as const;
const FUNCTION_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

const GEMINI_VERSIONS = new Set(['v1beta', 'v1', 'v1alpha']);
const VERTEX_VERSIONS = new Set(['v1', 'v1beta1']);

// ---------- route ----------

interface RouteInfo {
  stream: boolean;
}

function routeInfo(wire: WireContext): RouteInfo | NeutralError {
  const vertex = wire.operation.startsWith('vertex.');
  const version = wire.params.version;
  if (version !== undefined && !(vertex ? VERTEX_VERSIONS : GEMINI_VERSIONS).has(version)) {
    const known = [...(vertex ? VERTEX_VERSIONS : GEMINI_VERSIONS)].join(', ');
    return {
      kind: 'not_found',
      status: 404,
      code: 'NOT_FOUND',
      message: `API version "${version}" is not served here; Understudy answers ${vertex ? 'Vertex AI' : 'the Gemini API'} under ${known}.`,
    };
  }
  const stream = wire.operation.endsWith('.streamGenerateContent');
  const alt = wire.query.get('alt');
  if (alt !== null && alt !== 'json' && alt !== 'sse') {
    return invalidRequest(
      `Understudy answers alt=json (the default) and alt=sse; alt=${JSON.stringify(alt)} is not supported.`,
      'alt',
      'INVALID_ARGUMENT',
    );
  }
  return { stream };
}

// ---------- contents ----------

type Turn = 'user' | 'model' | 'system';

interface DecodedCall {
  kind: 'call';
  index: number;
  id: string | undefined;
  name: string;
  args: Record<string, unknown>;
}
interface DecodedResult {
  kind: 'result';
  index: number;
  id: string | undefined;
  name: string;
  response: Record<string, unknown>;
}
type DecodedPart = { kind: 'part'; part: Part } | DecodedCall | DecodedResult;

function decodePart(raw: unknown, at: string, turn: Turn, index: number): DecodedPart | undefined {
  const part = expectObject(raw, at);
  onlyKnownFields(part, PART_FIELDS, at);
  let dataKey: (typeof DATA_FIELDS)[number] | undefined;
  for (const key of DATA_FIELDS) {
    const value = field(part, key);
    if (unset(value) || (key === 'text' && value === '')) continue;
    if (dataKey !== undefined) {
      requestRule(`Invalid JSON payload received. Oneof field 'data' is already set. Cannot set '${key}'`, at);
    }
    dataKey = key;
  }
  const thought = field(part, 'thought');
  if (!unset(thought)) expectBool(thought, `${at}.thought`);
  const signature = field(part, 'thoughtSignature');
  if (!unset(signature)) expectString(signature, `${at}.thought_signature`);
  if (dataKey === undefined) {
    // A part that only carries a thought signature (as thinking models return them) is kept by
    // clients and sent back; it says nothing the neutral request records.
    if (!unset(signature)) return undefined;
    fieldRule(`${at}.data`, "required oneof field 'data' must have one initialized field");
  }
  const value = field(part, dataKey);
  const path = `${at}.${snake(dataKey)}`;
  switch (dataKey) {
    case 'text': {
      const text = expectString(value, path);
      return { kind: 'part', part: thought === true ? { type: 'reasoning', text } : { type: 'text', text } };
    }
    case 'inlineData': {
      const blob = expectObject(value, path);
      onlyKnownFields(blob, BLOB_FIELDS, path);
      const mimeType = field(blob, 'mimeType');
      if (unset(mimeType) || mimeType === '') fieldRule(`${path}.mime_type`, 'required field is not set');
      expectString(mimeType, `${path}.mime_type`);
      const data = field(blob, 'data');
      if (unset(data)) fieldRule(`${path}.data`, 'required field is not set');
      if (typeof data !== 'string' || !BASE64.test(data)) invalidValue(`${path}.data`, 'TYPE_BYTES', data);
      return { kind: 'part', part: { type: 'image', url: `data:${mimeType as string};base64,${data}`, mediaType: mimeType as string } };
    }
    case 'fileData': {
      const file = expectObject(value, path);
      onlyKnownFields(file, FILE_DATA_FIELDS, path);
      const uri = field(file, 'fileUri');
      if (unset(uri) || uri === '') fieldRule(`${path}.file_uri`, 'required field is not set');
      expectString(uri, `${path}.file_uri`);
      const mimeType = field(file, 'mimeType');
      if (!unset(mimeType)) expectString(mimeType, `${path}.mime_type`);
      return {
        kind: 'part',
        part: { type: 'image', url: uri as string, ...(typeof mimeType === 'string' && mimeType !== '' && { mediaType: mimeType }) },
      };
    }
    case 'functionCall': {
      if (turn !== 'model') fieldRule(path, `a function call can only be part of a model turn, not a ${turn} turn`);
      const call = expectObject(value, path);
      onlyKnownFields(call, FUNCTION_CALL_FIELDS, path);
      const name = field(call, 'name');
      if (unset(name) || name === '') fieldRule(`${path}.name`, 'name is required');
      expectString(name, `${path}.name`);
      const id = field(call, 'id');
      if (!unset(id)) expectString(id, `${path}.id`);
      const args = field(call, 'args');
      return {
        kind: 'call',
        index,
        id: unset(id) || id === '' ? undefined : (id as string),
        name: name as string,
        args: unset(args) ? {} : expectObject(args, `${path}.args`),
      };
    }
    case 'functionResponse': {
      if (turn !== 'user') fieldRule(path, `a function response can only be part of a user turn, not a ${turn} turn`);
      const result = expectObject(value, path);
      onlyKnownFields(result, FUNCTION_RESPONSE_FIELDS, path);
      const name = field(result, 'name');
      if (unset(name) || name === '') fieldRule(`${path}.name`, 'name is required');
      expectString(name, `${path}.name`);
      const id = field(result, 'id');
      if (!unset(id)) expectString(id, `${path}.id`);
      const response = field(result, 'response');
      const parts = field(result, 'parts');
      if (!unset(parts)) expectArray(parts, `${path}.parts`);
      const willContinue = field(result, 'willContinue');
      if (!unset(willContinue)) expectBool(willContinue, `${path}.will_continue`);
      return {
        kind: 'result',
        index,
        id: unset(id) || id === '' ? undefined : (id as string),
        name: name as string,
        response: unset(response) ? {} : expectObject(response, `${path}.response`),
      };
    }
    default:
      // Code execution and server-side tool records: valid history with no neutral equivalent.
      expectObject(value, path);
      return undefined;
  }
}

function decodeParts(raw: unknown, at: string, turn: Turn): DecodedPart[] {
  const path = `${at}.parts`;
  if (unset(raw)) fieldRule(path, 'contents.parts must not be empty.');
  const list = expectArray(raw, path);
  if (list.length === 0) fieldRule(path, 'contents.parts must not be empty.');
  const out: DecodedPart[] = [];
  list.forEach((rawPart, j) => {
    const decoded = decodePart(rawPart, `${path}[${j}]`, turn, j);
    if (decoded) out.push(decoded);
  });
  return out;
}

function role(raw: unknown, at: string): 'user' | 'model' {
  // An absent or empty role is the user's (single-turn requests usually leave it out).
  if (unset(raw) || raw === '') return 'user';
  const value = expectString(raw, at);
  if (value !== 'user' && value !== 'model') requestRule('Please use a valid role: user, model.', at);
  return value;
}

/** What a function response tells: its `output` (or `error`) when it names one, else the whole object. */
function resultContent(response: Record<string, unknown>): { content: string; isError: boolean } {
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  if (response.output !== undefined) return { content: text(response.output), isError: false };
  if (response.error !== undefined) return { content: text(response.error), isError: true };
  return { content: JSON.stringify(response), isError: false };
}

function decodeContents(raw: unknown): Message[] {
  if (unset(raw)) fieldRule('contents', 'contents is not specified');
  const list = expectArray(raw, 'contents');
  if (list.length === 0) fieldRule('contents', 'contents is not specified');
  const messages: Message[] = [];
  let previous: { role: 'user' | 'model'; calls: ToolCallPart[] } | undefined;

  list.forEach((rawContent, i) => {
    const at = `contents[${i}]`;
    const content = expectObject(rawContent, at);
    onlyKnownFields(content, CONTENT_FIELDS, at);
    const turnRole = role(field(content, 'role'), `${at}.role`);
    const decoded = decodeParts(field(content, 'parts'), at, turnRole);

    if (turnRole === 'model') {
      const parts: Part[] = [];
      const calls: ToolCallPart[] = [];
      for (const d of decoded) {
        if (d.kind === 'part') {
          parts.push(d.part);
        } else if (d.kind === 'call') {
          const argumentsText = JSON.stringify(d.args);
          const call: ToolCallPart = {
            type: 'tool_call',
            id: d.id ?? `${d.name}@${i}.${d.index}`,
            name: d.name,
            argumentsText,
            arguments: d.args as JsonValue,
          };
          calls.push(call);
          parts.push(call);
        }
      }
      if (calls.length > 0 && previous?.role !== 'user') {
        requestRule('Please ensure that function call turn comes immediately after a user turn or after a function response turn.', at);
      }
      messages.push({ role: 'assistant', parts });
      previous = { role: 'model', calls };
      return;
    }

    const results = decoded.filter((d): d is DecodedResult => d.kind === 'result');
    if (results.length > 0) {
      if (previous?.role !== 'model' || previous.calls.length === 0) {
        requestRule('Please ensure that function response turn comes immediately after a function call turn.', at);
      }
      if (results.length !== previous.calls.length) {
        requestRule(
          'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
          at,
        );
      }
      const unanswered = [...previous.calls];
      const toolParts: Part[] = results.map((r) => {
        let id = r.id;
        const match = id !== undefined ? unanswered.findIndex((c) => c.id === id) : unanswered.findIndex((c) => c.name === r.name);
        if (match >= 0) {
          id ??= unanswered[match].id;
          unanswered.splice(match, 1);
        }
        const { content: text, isError } = resultContent(r.response);
        return { type: 'tool_result', callId: id ?? `${r.name}@${i}.${r.index}`, name: r.name, content: text, isError };
      });
      messages.push({ role: 'tool', parts: toolParts });
    }
    const rest: Part[] = [];
    for (const d of decoded) if (d.kind === 'part') rest.push(d.part);
    if (rest.length > 0 || results.length === 0) messages.push({ role: 'user', parts: rest });
    previous = { role: 'user', calls: [] };
  });
  return messages;
}

function decodeSystemInstruction(raw: unknown): Message | undefined {
  if (unset(raw)) return undefined;
  const at = 'system_instruction';
  const content = expectObject(raw, at);
  onlyKnownFields(content, CONTENT_FIELDS, at);
  const r = field(content, 'role');
  if (!unset(r)) expectString(r, `${at}.role`);
  const parts: Part[] = [];
  for (const d of decodeParts(field(content, 'parts'), at, 'system')) if (d.kind === 'part') parts.push(d.part);
  return { role: 'system', parts };
}

// ---------- tools ----------

function checkCompiles(schema: JsonSchema, at: string): void {
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
    fieldRule(
      `${at}.name`,
      `Invalid function name ${JSON.stringify(name)}: it must start with a letter or an underscore, hold only letters, digits, underscores, dots, colons and dashes, and be at most 128 characters long.`,
    );
  }
  const description = field(decl, 'description');
  if (!unset(description)) expectString(description, `${at}.description`);
  const behavior = field(decl, 'behavior');
  if (!unset(behavior))
    expectEnum(
      behavior,
      `${at}.behavior`,
      'type.googleapis.com/google.ai.generativelanguage.v1beta.FunctionDeclaration.Behavior',
      BEHAVIORS,
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

function decodeTools(raw: unknown): ToolDefinition[] {
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
      if (seen.has(declaration.name)) fieldRule(`${path}[${k}].name`, `duplicate function declaration "${declaration.name}"`);
      seen.add(declaration.name);
      tools.push(declaration);
    });
  });
  return tools;
}

function decodeToolConfig(raw: unknown, declared: ToolDefinition[]): { toolChoice: ToolChoice; tools: ToolDefinition[] } {
  const auto = { toolChoice: { type: 'auto' } as ToolChoice, tools: declared };
  if (unset(raw)) return auto;
  const config = expectObject(raw, 'tool_config');
  onlyKnownFields(config, TOOL_CONFIG_FIELDS, 'tool_config');
  const fcc = field(config, 'functionCallingConfig');
  if (unset(fcc)) return auto;
  const at = 'tool_config.function_calling_config';
  const calling = expectObject(fcc, at);
  onlyKnownFields(calling, FUNCTION_CALLING_FIELDS, at);
  const rawMode = field(calling, 'mode');
  const mode = unset(rawMode) ? 'MODE_UNSPECIFIED' : expectEnum(rawMode, `${at}.mode`, MODE_ENUM, MODES);
  const streamArgs = field(calling, 'streamFunctionCallArguments');
  if (!unset(streamArgs)) expectBool(streamArgs, `${at}.stream_function_call_arguments`);

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

// ---------- generation config ----------

/** An int32 field: a JSON integer (or a string of digits) within 32 bits. */
function expectInt32(value: unknown, at: string): number {
  const n = expectInteger(value, at, 'TYPE_INT32');
  if (n > 2147483647 || n < -2147483648) invalidValue(at, 'TYPE_INT32', value);
  return n;
}

function decodeGenerationConfig(raw: unknown): { output: OutputFormat; maxOutputTokens?: number } {
  if (unset(raw)) return { output: { type: 'text' } };
  const at = 'generation_config';
  const config = expectObject(raw, at);
  onlyKnownFields(config, GENERATION_FIELDS, at);
  const get = (name: string) => field(config, name);
  const path = (name: string) => `${at}.${snake(name)}`;

  for (const name in GENERATION_NUMBERS) {
    const value = get(name);
    if (unset(value)) continue;
    const [proto, min, max] = GENERATION_NUMBERS[name];
    const n = proto === 'TYPE_INT32' ? expectInt32(value, path(name)) : expectNumber(value, path(name), proto);
    inRange(n, path(name), min, max);
  }
  if (!unset(get('mediaResolution'))) {
    expectEnum(get('mediaResolution'), path('mediaResolution'), `${ENUM}MediaResolution`, MEDIA_RESOLUTIONS);
  }
  if (!unset(get('responseLogprobs'))) expectBool(get('responseLogprobs'), path('responseLogprobs'));
  if (!unset(get('enableEnhancedCivicAnswers'))) expectBool(get('enableEnhancedCivicAnswers'), path('enableEnhancedCivicAnswers'));
  if (!unset(get('candidateCount'))) {
    const n = expectInteger(get('candidateCount'), path('candidateCount'), 'TYPE_INT32');
    if (n !== 1) unsupported(path('candidateCount'), `Understudy answers with exactly one candidate; candidateCount must be 1 (got ${n}).`);
  }
  let maxOutputTokens: number | undefined;
  if (!unset(get('maxOutputTokens'))) {
    const n = Number(get('maxOutputTokens'));
    if (n > 0) maxOutputTokens = n;
  }
  if (!unset(get('stopSequences'))) {
    expectArray(get('stopSequences'), path('stopSequences')).forEach((s, k) => expectString(s, `${path('stopSequences')}[${k}]`));
  }
  if (!unset(get('responseModalities'))) {
    const p = path('responseModalities');
    expectArray(get('responseModalities'), p).forEach((m, k) => {
      const modality = expectEnum(
        m,
        `${p}[${k}]`,
        'type.googleapis.com/google.ai.generativelanguage.v1beta.GenerationConfig.Modality',
        MODALITIES,
      );
      if (modality === 'IMAGE' || modality === 'AUDIO') {
        unsupported(`${p}[${k}]`, `Understudy answers with text only; responseModalities ${modality} is not supported.`);
      }
    });
  }
  if (!unset(get('thinkingConfig'))) {
    const p = path('thinkingConfig');
    const thinking = expectObject(get('thinkingConfig'), p);
    onlyKnownFields(thinking, THINKING_FIELDS, p);
    if (!unset(field(thinking, 'thinkingBudget'))) {
      // -1 asks for a dynamic budget; otherwise a budget is a count of tokens.
      inRange(expectInt32(field(thinking, 'thinkingBudget'), `${p}.thinking_budget`), `${p}.thinking_budget`, -1, undefined);
    }
    if (!unset(field(thinking, 'includeThoughts'))) expectBool(field(thinking, 'includeThoughts'), `${p}.include_thoughts`);
    if (!unset(field(thinking, 'thinkingLevel'))) {
      expectEnum(field(thinking, 'thinkingLevel'), `${p}.thinking_level`, `${ENUM}ThinkingConfig.ThinkingLevel`, THINKING_LEVELS);
    }
  }

  let mimeType = 'text/plain';
  if (!unset(get('responseMimeType'))) {
    mimeType = expectString(get('responseMimeType'), path('responseMimeType'));
    if (!MIME_TYPES.includes(mimeType)) {
      fieldRule(path('responseMimeType'), `unsupported mime type ${JSON.stringify(mimeType)}; allowed: ${MIME_TYPES.join(', ')}`);
    }
  }
  const openApi = get('responseSchema');
  const jsonSchema = get('responseJsonSchema');
  if (!unset(openApi) && !unset(jsonSchema)) {
    fieldRule(path('responseJsonSchema'), 'response_schema and response_json_schema are mutually exclusive; set only one');
  }
  let schema: JsonSchema | undefined;
  if (!unset(openApi)) {
    if (mimeType !== 'application/json' && mimeType !== 'text/x.enum') {
      fieldRule(
        path('responseSchema'),
        `response_mime_type must be application/json or text/x.enum when response_schema is set (it is ${mimeType})`,
      );
    }
    schema = normalizeOpenApiSchema(openApi, path('responseSchema'));
    checkCompiles(schema, path('responseSchema'));
  } else if (!unset(jsonSchema)) {
    if (mimeType !== 'application/json') {
      fieldRule(
        path('responseJsonSchema'),
        `response_mime_type must be application/json when response_json_schema is set (it is ${mimeType})`,
      );
    }
    if (!isObject(jsonSchema) && typeof jsonSchema !== 'boolean') fieldRule(path('responseJsonSchema'), 'must be a JSON Schema');
    schema = jsonSchema as JsonSchema;
    checkCompiles(schema, path('responseJsonSchema'));
  }
  // JSON mode without a schema asks for any JSON value; text/x.enum answers are plain text.
  const output: OutputFormat = mimeType === 'application/json' ? { type: 'json_schema', schema: schema ?? {} } : { type: 'text' };
  return { output, ...(maxOutputTokens !== undefined && { maxOutputTokens }) };
}

// ---------- the rest of the request ----------

function checkSafetySettings(raw: unknown): void {
  if (unset(raw)) return;
  expectArray(raw, 'safety_settings').forEach((rawSetting, i) => {
    const at = `safety_settings[${i}]`;
    const setting = expectObject(rawSetting, at);
    onlyKnownFields(setting, SAFETY_FIELDS, at);
    const category = field(setting, 'category');
    if (!unset(category)) expectEnum(category, `${at}.category`, `${ENUM}HarmCategory`, HARM_CATEGORIES);
    const threshold = field(setting, 'threshold');
    if (!unset(threshold)) expectEnum(threshold, `${at}.threshold`, `${ENUM}SafetySetting.HarmBlockThreshold`, HARM_THRESHOLDS);
    const method = field(setting, 'method');
    if (!unset(method)) expectEnum(method, `${at}.method`, `${ENUM}SafetySetting.HarmBlockMethod`, HARM_METHODS);
  });
}

export function decodeGeminiRequest(body: unknown, wire: WireContext): ChatRequest | NeutralError {
  const route = routeInfo(wire);
  if ('kind' in route) return route;
  try {
    if (!isObject(body)) requestRule('Invalid JSON payload received. Root element must be a message.');
    onlyKnownFields(body, REQUEST_FIELDS, '');
    const model = field(body, 'model');
    if (!unset(model)) expectString(model, 'model');
    if (!unset(field(body, 'cachedContent'))) {
      unsupported(
        'cached_content',
        'Understudy keeps no cached contents; send the whole prompt in contents instead of referring to cachedContent.',
      );
    }
    const labels = field(body, 'labels');
    if (!unset(labels)) {
      for (const [key, value] of Object.entries(expectObject(labels, 'labels'))) expectString(value, `labels[${key}]`);
    }
    for (const name of ['serviceTier', 'continuationToken']) {
      if (!unset(field(body, name))) expectString(field(body, name), snake(name));
    }
    if (!unset(field(body, 'store'))) expectBool(field(body, 'store'), 'store');
    checkSafetySettings(field(body, 'safetySettings'));

    const system = decodeSystemInstruction(field(body, 'systemInstruction'));
    const messages = decodeContents(field(body, 'contents'));
    if (system) messages.unshift(system);
    const declared = decodeTools(field(body, 'tools'));
    const { toolChoice, tools } = decodeToolConfig(field(body, 'toolConfig'), declared);
    const { output, maxOutputTokens } = decodeGenerationConfig(field(body, 'generationConfig'));
    return {
      model: wire.params.model,
      messages,
      tools,
      toolChoice,
      parallelToolCalls: true,
      output,
      stream: route.stream,
      streamUsage: route.stream,
      ...(maxOutputTokens !== undefined && { maxOutputTokens }),
    };
  } catch (error) {
    if (error instanceof GeminiWireError) return error.neutral;
    throw error;
  }
}
