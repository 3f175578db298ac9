// What Azure's video generation jobs (Sora on Azure OpenAI, `…/openai/v1/video/generations/jobs`)
// read, as Azure's reference describes it: a create's model (the deployment), prompt, width and
// height (one of the supported pairs), n_seconds (1 to 20, default 5) and n_variants (1 to 5,
// default 1); a list's limit, after, before and statuses.

import type { NeutralError } from '../../core/errors.js';
import { expectEnum, expectInteger, expectLength, expectObject, expectString, fail } from '../openai/checks.js';
import { refusalOr } from '../wire-kit/wire-error.js';

const SIZES = ['480x480', '480x854', '854x480', '720x720', '720x1280', '1280x720', '1080x1080', '1080x1920', '1920x1080'];
const FIELDS = new Set(['model', 'prompt', 'width', 'height', 'n_seconds', 'n_variants']);

export interface AzureJobCreate {
  model: string;
  prompt: string;
  width: number;
  height: number;
  seconds: number;
  variants: number;
}

/** An integer, or a string of digits (Azure's samples send both). */
function dimension(value: unknown, path: string): number {
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return expectInteger(value, path);
}

export function decodeAzureJobCreate(body: unknown): AzureJobCreate | NeutralError {
  return refusalOr(() => {
    const o = expectObject(body, 'body', 'a JSON object');
    for (const key of Object.keys(o)) if (!FIELDS.has(key)) fail(`Unknown parameter: '${key}'.`, key, 'unknown_parameter');
    for (const key of ['model', 'prompt', 'width', 'height']) {
      if (o[key] === undefined) fail(`Missing required parameter: '${key}'.`, key, 'missing_required_parameter');
    }
    const model = expectLength(expectString(o.model, 'model'), 'model', { min: 1 });
    const prompt = expectLength(expectString(o.prompt, 'prompt'), 'prompt', { min: 1 });
    const width = dimension(o.width, 'width');
    const height = dimension(o.height, 'height');
    if (!SIZES.includes(`${width}x${height}`)) {
      fail(`Invalid size ${width}x${height}. The following dimensions are supported: ${SIZES.join(', ')}.`, 'width', 'invalid_value');
    }
    const seconds = o.n_seconds === undefined ? 5 : expectInteger(o.n_seconds, 'n_seconds', { min: 1, max: 20 });
    const variants = o.n_variants === undefined ? 1 : expectInteger(o.n_variants, 'n_variants', { min: 1, max: 5 });
    return { model, prompt, width, height, seconds, variants };
  });
}

export const AZURE_JOB_STATUSES = ['preprocessing', 'queued', 'running', 'processing', 'cancelled', 'succeeded', 'failed'] as const;
export type AzureJobStatus = (typeof AZURE_JOB_STATUSES)[number];

export interface AzureJobList {
  limit: number;
  after: string | undefined;
  before: string | undefined;
  statuses: AzureJobStatus[] | undefined;
}

export function decodeAzureJobList(query: URLSearchParams): AzureJobList | NeutralError {
  return refusalOr(() => {
    const limit = query.get('limit');
    if (limit !== null && !/^\d+$/.test(limit))
      fail(`Invalid 'limit': expected an integer, but got '${limit}' instead.`, 'limit', 'invalid_type');
    const statuses = query.getAll('statuses').flatMap((s) => s.split(','));
    return {
      limit: limit === null ? 20 : expectInteger(Number(limit), 'limit', { min: 1, max: 100 }),
      after: query.get('after') ?? undefined,
      before: query.get('before') ?? undefined,
      statuses: statuses.length === 0 ? undefined : statuses.map((s, i) => expectEnum(s, AZURE_JOB_STATUSES, `statuses[${i}]`)),
    };
  });
}
