// One recorded step re-sent to its upstream and its answer's shape compared with the recorded one
// (decision 0017 item 9). What says nothing about the answer — no upstream given, the network, a
// timeout, a refusal of the credentials, a rate limit or a server error — is "could not check",
// never drift.

import type { ChatDialect } from '../dialects/dialect.js';
import { DIALECTS } from '../dialects/registry.js';
import { answerShape, shapeDifferences } from '../dialects/wire-kit/answer-shape.js';
import type { RecordedAnswer } from '../dialects/wire-kit/recorded-answer.js';
import { BedrockSigner } from '../transport/bedrock-resign.js';
import { credentialHeaders, credentialVariables } from './drift-credentials.js';
import type { RecordedRequest } from './drift-recordings.js';

export type Outcome =
  { result: 'unchanged' } | { result: 'drifted'; differences: string[] } | { result: 'could not check'; reason: string };

export interface CheckOptions {
  /** --upstream NAME=URL: each name's base URL. */
  upstreams: ReadonlyMap<string, string>;
  /** --header NAME:HEADER=VALUE: extra headers per upstream name (lower-case header names). */
  headers: ReadonlyMap<string, Record<string, string>>;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

/** Statuses that say nothing of the answer's shape: the credentials, a timeout, a rate limit. */
const NOT_AN_ANSWER = new Set([401, 403, 408, 429]);
/** Request headers the client sets for itself; a recording should hold none of them. */
const OWN_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive', 'expect', 'upgrade']);

let dialects: Map<string, ChatDialect> | undefined;
/** One signer per environment, so that the AWS credential chain is resolved once per run. */
const signers = new WeakMap<NodeJS.ProcessEnv, BedrockSigner>();
/** Headers fetch sets for itself, to the values signed. */
const FETCH_SETS = new Set(['host', 'content-length']);

/** The dialect whose routes answer an operation id. */
function dialectOf(operation: string): ChatDialect | undefined {
  if (!dialects) {
    dialects = new Map();
    for (const registration of DIALECTS) {
      for (const route of registration.routes) if (!dialects.has(route.operation)) dialects.set(route.operation, route.dialect);
    }
  }
  return dialects.get(operation);
}

function requestHeaders(recorded: RecordedRequest, options: CheckOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(recorded.headers))
    if (!OWN_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  if (recorded.body !== undefined && !('content-type' in headers)) headers['content-type'] = 'application/json';
  Object.assign(headers, credentialHeaders(recorded.provider, options.env), options.headers.get(recorded.provider));
  return headers;
}

function failureOf(error: unknown, timeoutMs: number): string {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const cause = e.cause?.code ?? e.cause?.message;
  return `network error: ${cause ?? e.message}`;
}

/** The answer read by the dialect's reader: the reading, `undefined` when the dialect has none, or
 * why it could not read it. */
function readWith(dialect: ChatDialect | undefined, body: string, stream: boolean): RecordedAnswer | string | undefined {
  const reader = dialect?.readAnswer;
  if (!reader) return undefined;
  if (stream) return reader.stream(body);
  try {
    return reader.json(JSON.parse(body) as unknown);
  } catch {
    return 'the answer is not JSON';
  }
}

const oneLine = (text: string, most = 200) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > most ? `${line.slice(0, most)}…` : line;
};

export async function checkStep(recorded: RecordedRequest, options: CheckOptions): Promise<Outcome> {
  const base = options.upstreams.get(recorded.provider);
  if (base === undefined) return { result: 'could not check', reason: `no --upstream ${recorded.provider}=URL was given` };
  let headers = requestHeaders(recorded, options);
  const url = `${base.replace(/\/+$/, '')}${recorded.path}`;
  const sent =
    recorded.body !== undefined && recorded.method !== 'GET' && recorded.method !== 'HEAD' ? JSON.stringify(recorded.body) : undefined;
  if (recorded.operation.startsWith('bedrock.') && headers.authorization === undefined) {
    const signed = await sigV4Signed(recorded.method, url, headers, sent ?? '', options.env);
    if (typeof signed === 'string') return { result: 'could not check', reason: signed };
    headers = signed;
  }
  const dialect = dialectOf(recorded.operation);
  let status: number;
  let contentType: string;
  let body: string;
  try {
    const answer = await fetch(url, {
      method: recorded.method,
      headers,
      ...(sent !== undefined && { body: sent }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    status = answer.status;
    contentType = answer.headers.get('content-type') ?? '';
    const bytes = Buffer.from(await answer.arrayBuffer());
    body = bytes.toString(dialect?.binaryStream && recorded.stream ? 'latin1' : 'utf8');
  } catch (error) {
    return { result: 'could not check', reason: failureOf(error, options.timeoutMs) };
  }
  if (NOT_AN_ANSWER.has(status) || status >= 500) {
    const hint = status === 401 || status === 403 ? credentialHint(recorded.provider) : '';
    return { result: 'could not check', reason: `the upstream answered ${status}${hint}: ${oneLine(body, 120)}` };
  }
  const read = status >= 200 && status < 300 ? readWith(dialect, body, recorded.stream) : undefined;
  const now = answerShape({ status, contentType, body, stream: recorded.stream }, typeof read === 'object' ? read : undefined);
  const differences = shapeDifferences(
    { ...recorded.shape, status: recorded.status },
    { ...now, status },
    { reading: typeof read === 'object' },
  );
  if (typeof read === 'string') differences.push(`the ${recorded.operation} reader could not read the answer: ${read}`);
  if (status !== recorded.status && body !== '') differences.push(`answer: ${oneLine(body)}`);
  return differences.length === 0 ? { result: 'unchanged' } : { result: 'drifted', differences };
}

/** A Bedrock request without a Bedrock API key, signed with SigV4 by the AWS SDK's default
 * credential chain (transport/bedrock-resign.ts); the region is the upstream host's, else
 * AWS_REGION or AWS_DEFAULT_REGION. Or why it could not be signed. */
async function sigV4Signed(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string,
  env: NodeJS.ProcessEnv,
): Promise<Record<string, string> | string> {
  let signer = signers.get(env);
  if (!signer) {
    const region = env.AWS_REGION || env.AWS_DEFAULT_REGION;
    signer = new BedrockSigner(region ? { region } : {});
    signers.set(env, signer);
  }
  const signed = await signer.sign({ method, target: new URL(url), headers, body });
  if ('refusal' in signed) {
    return `a Bedrock request without a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK) is signed with SigV4, and ${signed.refusal}${
      /region/.test(signed.refusal) ? ' (set AWS_REGION)' : ''
    }`;
  }
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) if (value !== undefined && !FETCH_SETS.has(name)) out[name] = String(value);
  return out;
}

function credentialHint(provider: string): string {
  const variables = credentialVariables(provider);
  const from = variables.length > 0 ? `${variables.join(' or ')}, or --header` : '--header';
  return ` (the credentials: ${from} ${provider}:HEADER=VALUE)`;
}
