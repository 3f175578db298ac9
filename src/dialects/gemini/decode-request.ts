// Checks a generateContent / streamGenerateContent body the way Gemini's front end does and
// decodes it into the neutral ChatRequest. The model comes from the path, streaming from the
// method, the stream's framing from `?alt=`; contents, tools and generationConfig each have a
// module of their own.

import { invalidRequest, isNeutralError, type NeutralError } from '../../core/errors.js';
import type { ChatRequest } from '../../core/model.js';
import type { WireContext } from '../dialect.js';
import { isObject } from '../wire-kit/values.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import { unknownGeminiModel } from './catalogue.js';
import { decodeContents, decodeSystemInstruction } from './decode-contents.js';
import { decodeGenerationConfig } from './decode-generation-config.js';
import { decodeToolConfig, decodeTools } from './decode-tools.js';
import { ENUM, field, onlyKnownFields, snake, unset } from './proto-fields.js';
import { expectArray, expectBoolean, expectEnum, expectObject, expectString, requestRule, unsupported } from './wording.js';

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
const SAFETY_FIELDS = new Set(['category', 'threshold', 'method']);
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
const GEMINI_VERSIONS = new Set(['v1beta', 'v1', 'v1alpha']);
const VERTEX_VERSIONS = new Set(['v1', 'v1beta1']);

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

function checkSafetySettings(raw: unknown): void {
  if (unset(raw)) return;
  expectArray(raw, 'safety_settings').forEach((rawSetting, i) => {
    const at = `safety_settings[${i}]`;
    const setting = expectObject(rawSetting, at);
    onlyKnownFields(setting, SAFETY_FIELDS, at);
    const category = field(setting, 'category');
    if (!unset(category)) expectEnum(category, HARM_CATEGORIES, `${at}.category`, `${ENUM}HarmCategory`);
    const threshold = field(setting, 'threshold');
    if (!unset(threshold)) expectEnum(threshold, HARM_THRESHOLDS, `${at}.threshold`, `${ENUM}SafetySetting.HarmBlockThreshold`);
    const method = field(setting, 'method');
    if (!unset(method)) expectEnum(method, HARM_METHODS, `${at}.method`, `${ENUM}SafetySetting.HarmBlockMethod`);
  });
}

export function decodeGeminiRequest(body: unknown, wire: WireContext): ChatRequest | NeutralError {
  const route = routeInfo(wire);
  if ('kind' in route) return route;
  const decoded = refusalOr(() => decodeBody(body, wire, route));
  if (isNeutralError(decoded)) return decoded;
  // After the body's checks, as OpenAI's catalogue refusal: a session with `models` has only those.
  const vertex = wire.operation.startsWith('vertex.');
  const scope = vertex ? { project: wire.params.project, location: wire.params.location } : undefined;
  return unknownGeminiModel(wire.state, decoded.model, wire.params.version ?? 'v1beta', scope) ?? decoded;
}

function decodeBody(body: unknown, wire: WireContext, route: RouteInfo): ChatRequest {
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
  if (!unset(field(body, 'store'))) expectBoolean(field(body, 'store'), 'store');
  if (!unset(field(body, 'modelArmorConfig'))) expectObject(field(body, 'modelArmorConfig'), 'model_armor_config');
  checkSafetySettings(field(body, 'safetySettings'));

  const system = decodeSystemInstruction(field(body, 'systemInstruction'));
  const messages = decodeContents(field(body, 'contents'));
  if (system) messages.unshift(system);
  const declared = decodeTools(field(body, 'tools'));
  const { toolChoice, tools } = decodeToolConfig(field(body, 'toolConfig'), declared);
  const { output, maxOutputTokens, imageOutput } = decodeGenerationConfig(
    field(body, 'generationConfig'),
    wire.operation.startsWith('vertex.'),
  );
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
    ...(imageOutput && { imageOutput }),
  };
}
