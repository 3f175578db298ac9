// The request's options besides its conversation and tools: `inferenceConfig` (ranges as the API
// documents them), structured output through `outputConfig.textFormat` (the schema is JSON text),
// and the members Understudy checks and otherwise ignores (guardrails, prompt variables, request
// metadata, model-specific fields, latency and service tiers).

import type { JsonSchema, OutputFormat } from '../../core/model.js';
import { given } from '../wire-kit/values.js';
import {
  constraint,
  element,
  expectArray,
  expectEnum,
  expectInteger,
  expectLength,
  expectNumber,
  expectObject,
  expectString,
  fail,
  onlyMembers,
  requiredMember,
  unionMember,
} from '../bedrock/wording.js';
import { usableSchema } from './decode-tools.js';

const INFERENCE_MEMBERS = new Set(['maxTokens', 'temperature', 'topP', 'stopSequences']);
const OUTPUT_CONFIG_MEMBERS = new Set(['textFormat', 'effort']);
const TEXT_FORMAT_MEMBERS = new Set(['type', 'structure']);
const JSON_SCHEMA_MEMBERS = new Set(['schema', 'name', 'description']);
const GUARDRAIL_MEMBERS = new Set(['guardrailIdentifier', 'guardrailVersion', 'trace']);
const GUARDRAIL_STREAM_MEMBERS = new Set([...GUARDRAIL_MEMBERS, 'streamProcessingMode']);
const UNIT = { min: 0, max: 1 };
const MAX_TOKENS = { min: 1 };
const STOP_SEQUENCES = { max: 2500 };
const NON_EMPTY = { min: 1 };
const RESPONSE_FIELD_PATHS = { max: 10 };
const RESPONSE_FIELD_PATH = { min: 1, max: 256 };
const METADATA_ENTRIES = 16;
const METADATA_KEY = { min: 1, max: 256 };
const METADATA_VALUE = { max: 256 };
const SCHEMA_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export interface Inference {
  maxTokens?: number;
}

export function decodeInferenceConfig(raw: unknown): Inference {
  if (!given(raw)) return {};
  const config = expectObject(raw, 'inferenceConfig');
  onlyMembers(config, INFERENCE_MEMBERS, 'inferenceConfig');
  const maxTokens = given(config.maxTokens) ? expectInteger(config.maxTokens, 'inferenceConfig.maxTokens', MAX_TOKENS) : undefined;
  if (given(config.temperature)) expectNumber(config.temperature, 'inferenceConfig.temperature', UNIT);
  if (given(config.topP)) expectNumber(config.topP, 'inferenceConfig.topP', UNIT);
  if (given(config.stopSequences)) {
    const stops = expectLength(
      expectArray(config.stopSequences, 'inferenceConfig.stopSequences'),
      'inferenceConfig.stopSequences',
      STOP_SEQUENCES,
    );
    stops.forEach((stop, i) => {
      const path = element('inferenceConfig.stopSequences', i);
      expectLength(expectString(stop, path), path, NON_EMPTY);
    });
  }
  return { maxTokens };
}

/** `outputConfig.textFormat`: a JSON schema, sent as JSON text, that the answer must satisfy. */
export function decodeOutputConfig(raw: unknown): OutputFormat {
  if (!given(raw)) return { type: 'text' };
  const config = expectObject(raw, 'outputConfig');
  onlyMembers(config, OUTPUT_CONFIG_MEMBERS, 'outputConfig');
  if (given(config.effort)) expectEnum(config.effort, ['low', 'medium', 'high', 'xhigh', 'max'], 'outputConfig.effort');
  if (!given(config.textFormat)) return { type: 'text' };
  const at = 'outputConfig.textFormat';
  const format = expectObject(config.textFormat, at);
  onlyMembers(format, TEXT_FORMAT_MEMBERS, at);
  expectEnum(requiredMember(format, 'type', at), ['json_schema'], `${at}.type`);
  const structure = expectObject(requiredMember(format, 'structure', at), `${at}.structure`);
  unionMember(structure, ['jsonSchema'], `${at}.structure`);
  const definitionPath = `${at}.structure.jsonSchema`;
  const definition = expectObject(structure.jsonSchema, definitionPath);
  onlyMembers(definition, JSON_SCHEMA_MEMBERS, definitionPath);
  const schemaPath = `${definitionPath}.schema`;
  const text = expectString(
    requiredMember(definition, 'schema', definitionPath),
    schemaPath,
    'Member must be a string (the JSON schema as JSON text)',
  );
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch {
    fail(schemaPath, `The JSON schema at ${schemaPath} is not valid JSON.`);
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    fail(schemaPath, `The JSON schema at ${schemaPath} must be a JSON object.`);
  usableSchema(schema as Record<string, unknown>, schemaPath);
  let name: string | undefined;
  if (given(definition.name)) {
    name = expectString(definition.name, `${definitionPath}.name`);
    if (!SCHEMA_NAME.test(name))
      constraint(`${definitionPath}.name`, name, 'Member must satisfy regular expression pattern: ^[a-zA-Z0-9_-]{1,64}$');
  }
  if (given(definition.description))
    expectLength(expectString(definition.description, `${definitionPath}.description`), `${definitionPath}.description`, NON_EMPTY);
  return { type: 'json_schema', name, schema: schema as JsonSchema };
}

/** The members checked for their shape and otherwise ignored: Understudy runs no guardrail,
 * prompt-management resource or model-specific option. */
export function checkIgnoredMembers(body: Record<string, unknown>, stream: boolean): void {
  if (given(body.guardrailConfig)) {
    const config = expectObject(body.guardrailConfig, 'guardrailConfig');
    onlyMembers(config, stream ? GUARDRAIL_STREAM_MEMBERS : GUARDRAIL_MEMBERS, 'guardrailConfig');
    for (const key of ['guardrailIdentifier', 'guardrailVersion'] as const)
      if (given(config[key])) expectString(config[key], `guardrailConfig.${key}`);
    if (given(config.trace)) expectEnum(config.trace, ['enabled', 'disabled', 'enabled_full'], 'guardrailConfig.trace');
    if (given(config.streamProcessingMode))
      expectEnum(config.streamProcessingMode, ['sync', 'async'], 'guardrailConfig.streamProcessingMode');
  }
  if (given(body.additionalModelRequestFields)) expectObject(body.additionalModelRequestFields, 'additionalModelRequestFields');
  if (given(body.additionalModelResponseFieldPaths)) {
    const paths = expectLength(
      expectArray(body.additionalModelResponseFieldPaths, 'additionalModelResponseFieldPaths'),
      'additionalModelResponseFieldPaths',
      RESPONSE_FIELD_PATHS,
    );
    paths.forEach((p, i) => {
      const path = element('additionalModelResponseFieldPaths', i);
      expectLength(expectString(p, path), path, RESPONSE_FIELD_PATH);
    });
  }
  if (given(body.promptVariables)) {
    const variables = expectObject(body.promptVariables, 'promptVariables');
    for (const key in variables) {
      const path = `promptVariables.${key}`;
      const value = expectObject(variables[key], path);
      unionMember(value, ['text'], path);
      expectString(value.text, `${path}.text`);
    }
  }
  if (given(body.requestMetadata)) {
    const metadata = expectObject(body.requestMetadata, 'requestMetadata');
    const keys = Object.keys(metadata);
    if (keys.length > METADATA_ENTRIES)
      constraint('requestMetadata', '…', `Member must have length less than or equal to ${METADATA_ENTRIES}`);
    for (const key of keys) {
      expectLength(key, `requestMetadata.${key}`, METADATA_KEY);
      expectLength(expectString(metadata[key], `requestMetadata.${key}`), `requestMetadata.${key}`, METADATA_VALUE);
    }
  }
  if (given(body.performanceConfig)) {
    const config = expectObject(body.performanceConfig, 'performanceConfig');
    onlyMembers(config, new Set(['latency']), 'performanceConfig');
    if (given(config.latency)) expectEnum(config.latency, ['standard', 'optimized'], 'performanceConfig.latency');
  }
  if (given(body.serviceTier)) {
    const tier = expectObject(body.serviceTier, 'serviceTier');
    onlyMembers(tier, new Set(['type']), 'serviceTier');
    expectEnum(requiredMember(tier, 'type', 'serviceTier'), ['default', 'flex', 'priority', 'reserved'], 'serviceTier.type');
  }
}
