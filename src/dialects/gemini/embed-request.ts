// The Gemini API's embedding requests: `models/{model}:embedContent` (one content) and
// `:batchEmbedContents` (`requests`, each an EmbedContentRequest), checked in Google's words:
// unknown fields, wrong proto types, a content with no text, `taskType` outside its enum,
// `outputDimensionality` below 1, more than 100 requests in a batch, a request naming another model.

import { invalidRequest } from '../../core/errors.js';
import { MAX_DIMENSIONS } from '../../core/embedding-vectors.js';
import { isObject } from '../wire-kit/values.js';
import { reject } from '../wire-kit/wire-error.js';
import { ENUM, field, join, onlyKnownFields, unset } from './proto-fields.js';
import { expectArray, expectEnum, expectInteger, expectObject, expectString, INVALID_ARGUMENT, requestRule } from './wording.js';

export interface GeminiEmbedRequest {
  model: string;
  /** Each content's text, and the dimensions its request asked for (each request of a batch its own). */
  items: { text: string; dimensions: number | undefined }[];
}

const EMBED_FIELDS = new Set(['model', 'content', 'taskType', 'title', 'outputDimensionality']);
const BATCH_FIELDS = new Set(['requests']);
const CONTENT_FIELDS = new Set(['role', 'parts']);
const PART_FIELDS = new Set(['text', 'inlineData', 'fileData', 'thought', 'thoughtSignature']);
const TASK_TYPES = [
  'TASK_TYPE_UNSPECIFIED',
  'RETRIEVAL_QUERY',
  'RETRIEVAL_DOCUMENT',
  'SEMANTIC_SIMILARITY',
  'CLASSIFICATION',
  'CLUSTERING',
  'QUESTION_ANSWERING',
  'FACT_VERIFICATION',
  'CODE_RETRIEVAL_QUERY',
] as const;
export const MAX_BATCH = 100;

function rule(message: 'EmbedContentRequest' | 'BatchEmbedContentsRequest', at: string, text: string): never {
  reject(invalidRequest(`* ${message}.${at}: ${text}\n`, at, INVALID_ARGUMENT));
}

/** The text of one content: its text parts joined by newlines (other parts are refused). */
function contentText(raw: unknown, at: string, message: 'EmbedContentRequest' | 'BatchEmbedContentsRequest'): string {
  if (unset(raw)) rule(message, at, 'required field is not set');
  const content = expectObject(raw, at);
  onlyKnownFields(content, CONTENT_FIELDS, at);
  const role = field(content, 'role');
  if (!unset(role)) expectString(role, join(at, 'role'));
  const partsAt = join(at, 'parts');
  const rawParts = field(content, 'parts');
  const parts = unset(rawParts) ? [] : expectArray(rawParts, partsAt);
  if (parts.length === 0) rule(message, partsAt, 'contents.parts must not be empty.');
  const texts: string[] = [];
  parts.forEach((rawPart, i) => {
    const partAt = `${partsAt}[${i}]`;
    const part = expectObject(rawPart, partAt);
    onlyKnownFields(part, PART_FIELDS, partAt);
    const text = field(part, 'text');
    if (unset(text)) rule(message, partAt, 'Understudy embeds text parts only; this part has no text.');
    texts.push(expectString(text, join(partAt, 'text')));
  });
  const text = texts.join('\n');
  if (text === '') rule(message, partsAt, 'the content has no text to embed.');
  return text;
}

/** One EmbedContentRequest (`at` '' for the single route, `requests[i]` in a batch). */
function embedRequest(raw: unknown, at: string, urlModel: string, message: 'EmbedContentRequest' | 'BatchEmbedContentsRequest') {
  const o = expectObject(raw, at);
  onlyKnownFields(o, EMBED_FIELDS, at);
  const model = field(o, 'model');
  if (!unset(model)) {
    const named = expectString(model, join(at, 'model'));
    if (named !== `models/${urlModel}` && named !== urlModel) {
      rule(message, join(at, 'model'), `the model "${named}" differs from the model of the URL, "models/${urlModel}".`);
    }
  }
  const taskType = field(o, 'taskType');
  if (!unset(taskType)) expectEnum(taskType, TASK_TYPES, join(at, 'task_type'), `${ENUM}TaskType`);
  const title = field(o, 'title');
  if (!unset(title)) expectString(title, join(at, 'title'));
  const rawDimensions = field(o, 'outputDimensionality');
  const dimensions = unset(rawDimensions)
    ? undefined
    : expectInteger(rawDimensions, join(at, 'output_dimensionality'), { min: 1, max: MAX_DIMENSIONS }, 'TYPE_INT32');
  return { text: contentText(field(o, 'content'), join(at, 'content'), message), dimensions };
}

export function decodeEmbedContent(body: unknown, urlModel: string): GeminiEmbedRequest {
  if (!isObject(body)) requestRule('Invalid JSON payload received. Root element must be a message.');
  return { model: urlModel, items: [embedRequest(body, '', urlModel, 'EmbedContentRequest')] };
}

export function decodeBatchEmbedContents(body: unknown, urlModel: string): GeminiEmbedRequest {
  if (!isObject(body)) requestRule('Invalid JSON payload received. Root element must be a message.');
  onlyKnownFields(body, BATCH_FIELDS, '');
  const raw = field(body, 'requests');
  const requests = unset(raw) ? [] : expectArray(raw, 'requests');
  if (requests.length === 0) rule('BatchEmbedContentsRequest', 'requests', 'required field is not set');
  if (requests.length > MAX_BATCH) rule('BatchEmbedContentsRequest', 'requests', `at most ${MAX_BATCH} requests can be in one batch`);
  return { model: urlModel, items: requests.map((r, i) => embedRequest(r, `requests[${i}]`, urlModel, 'BatchEmbedContentsRequest')) };
}

const INSTANCE_FIELDS = new Set(['content', 'taskType', 'title']);
const PARAMETER_FIELDS = new Set(['outputDimensionality', 'autoTruncate']);

/** Vertex AI's embedding `:predict`: `{ instances: [{ content, task_type?, title? }], parameters?:
 * { outputDimensionality?, autoTruncate? } }`, one size for every instance. */
export function decodeVertexPredict(body: unknown, urlModel: string): GeminiEmbedRequest {
  if (!isObject(body)) requestRule('Invalid JSON payload received. Root element must be a message.');
  onlyKnownFields(body, new Set(['instances', 'parameters']), '');
  const raw = field(body, 'instances');
  const instances = unset(raw) ? [] : expectArray(raw, 'instances');
  if (instances.length === 0) requestRule('instances must not be empty.', 'instances');
  const rawParameters = field(body, 'parameters');
  let dimensions: number | undefined;
  if (!unset(rawParameters)) {
    const parameters = expectObject(rawParameters, 'parameters');
    onlyKnownFields(parameters, PARAMETER_FIELDS, 'parameters');
    const d = field(parameters, 'outputDimensionality');
    if (!unset(d)) dimensions = expectInteger(d, 'parameters.output_dimensionality', { min: 1, max: MAX_DIMENSIONS }, 'TYPE_INT32');
    const truncate = field(parameters, 'autoTruncate');
    if (!unset(truncate) && typeof truncate !== 'boolean')
      requestRule('parameters.autoTruncate must be a boolean.', 'parameters.auto_truncate');
  }
  const items = instances.map((rawInstance, i) => {
    const at = `instances[${i}]`;
    const instance = expectObject(rawInstance, at);
    onlyKnownFields(instance, INSTANCE_FIELDS, at);
    const content = field(instance, 'content');
    if (unset(content)) requestRule(`${at}.content is required.`, join(at, 'content'));
    const text = expectString(content, join(at, 'content'));
    if (text === '') requestRule(`${at}.content must not be empty.`, join(at, 'content'));
    const taskType = field(instance, 'taskType');
    if (!unset(taskType)) expectEnum(taskType, TASK_TYPES, join(at, 'task_type'), `${ENUM}TaskType`);
    return { text, dimensions };
  });
  return { model: urlModel, items };
}
