// Record mode's re-signing of a SigV4-signed Bedrock request (decision 0017 item 4). The AWS client
// signed Understudy's host, path and date, so the real endpoint would refuse that signature; the
// request is signed anew for the upstream with the recorder's own AWS credentials — never the
// application's, of which only the access key id ever reaches Understudy.
//
// The signer and the default credential chain are the AWS SDK's own packages, loaded when the first
// signed request is relayed: whoever records Bedrock traffic has them (they are the Bedrock
// client's dependencies), and nobody else pays for them. They are optional peer dependencies.

import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** How record mode signs Bedrock requests for the upstream. */
export interface AwsSigning {
  /** The signing region when the upstream's host names none (`bedrock-runtime.REGION.amazonaws.com`
   * does); else the region the application signed for. */
  region?: string;
  /** The recorder's credentials, or a provider of them (`fromIni({ profile })` …); default: the AWS
   * SDK's default chain (environment, shared config and credentials files, SSO, process, web
   * identity, container and instance metadata). */
  credentials?: AwsCredentials | (() => Promise<AwsCredentials>);
}

/** The two packages' parts used here. */
export interface SigningModules {
  SignatureV4: new (init: {
    credentials: () => Promise<AwsCredentials>;
    region: string;
    service: string;
    sha256: new (secret?: unknown) => { update(data: unknown): void; digest(): Promise<Uint8Array> };
  }) => { sign(request: SignableRequest, options?: { signingDate?: Date }): Promise<{ headers: Record<string, string> }> };
  defaultProvider?: () => () => Promise<AwsCredentials>;
}

interface SignableRequest {
  method: string;
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body: string;
}

const SIGV4 = 'AWS4-HMAC-SHA256';
/** What the application's client signed with, dropped before signing anew. */
const SIGNING_HEADERS = new Set(['authorization', 'x-amz-date', 'x-amz-security-token', 'x-amz-content-sha256']);
export const SIGNING_PACKAGES = ['@smithy/signature-v4', '@aws-sdk/credential-provider-node'] as const;

export function isSigV4(authorization: string | undefined): boolean {
  return authorization !== undefined && authorization.startsWith(`${SIGV4} `);
}

/** The region a Bedrock endpoint's host names (`bedrock-runtime.us-east-1.amazonaws.com`, its
 * `-fips` and `.amazonaws.com.cn` forms). */
export function regionOfHost(hostname: string): string | undefined {
  return /^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$/i.exec(hostname)?.[1]?.toLowerCase();
}

/** The region of a SigV4 `Authorization` header's credential scope (`Credential=AKID/date/REGION/…`). */
export function scopeRegion(authorization: string): string | undefined {
  return /Credential=[^/,\s]+\/\d{8}\/([^/,\s]+)\//.exec(authorization)?.[1];
}

/** The SHA-256 (or, given a key, HMAC-SHA256) the signer asks for, on node:crypto. */
class Sha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: unknown) {
    this.hash = secret === undefined || secret === null ? createHash('sha256') : createHmac('sha256', bytesOf(secret));
  }
  update(data: unknown): void {
    this.hash.update(bytesOf(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}

function bytesOf(data: unknown): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  throw new TypeError('cannot hash this value');
}

export async function loadSigningModules(): Promise<SigningModules> {
  const signer = (await import('@smithy/signature-v4')) as unknown as Pick<SigningModules, 'SignatureV4'>;
  return { SignatureV4: signer.SignatureV4 };
}

async function loadDefaultProvider(): Promise<() => () => Promise<AwsCredentials>> {
  const chain = (await import('@aws-sdk/credential-provider-node')) as unknown as { defaultProvider: () => () => Promise<AwsCredentials> };
  return chain.defaultProvider;
}

export interface ResignInput {
  method: string;
  target: URL;
  /** The headers to forward (relay.ts `forwardedHeaders`), the application's signature still in them. */
  headers: OutgoingHttpHeaders;
  body: string;
  /** The application's `Authorization`, whose credential scope's region is the last resort. */
  authorization?: string;
}

export class BedrockSigner {
  private modules?: Promise<SigningModules>;
  private credentials?: Promise<() => Promise<AwsCredentials>>;

  constructor(
    private readonly options: AwsSigning = {},
    private readonly load: () => Promise<SigningModules> = loadSigningModules,
    private readonly loadChain: () => Promise<() => () => Promise<AwsCredentials>> = loadDefaultProvider,
  ) {}

  /** The headers to send the upstream, signed for it; or why the request cannot be signed. */
  async sign(input: ResignInput): Promise<{ headers: OutgoingHttpHeaders } | { refusal: string }> {
    let modules: SigningModules;
    try {
      modules = await (this.modules ??= this.load());
    } catch (error) {
      this.modules = undefined;
      return { refusal: missingPackage('@smithy/signature-v4', error) };
    }
    let provider: () => Promise<AwsCredentials>;
    try {
      provider = await (this.credentials ??= this.providerOf());
    } catch (error) {
      this.credentials = undefined;
      return { refusal: missingPackage('@aws-sdk/credential-provider-node', error) };
    }
    let credentials: AwsCredentials;
    try {
      credentials = await provider();
    } catch (error) {
      return { refusal: noCredentials(error) };
    }
    const region = regionOfHost(input.target.hostname) ?? this.options.region ?? scopeRegion(input.authorization ?? '');
    if (region === undefined) {
      return { refusal: "signing it for the upstream takes a region, and the upstream's host names none" };
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(input.headers)) {
      if (value === undefined || SIGNING_HEADERS.has(name.toLowerCase())) continue;
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    headers.host = input.target.host;
    headers['content-length'] = String(Buffer.byteLength(input.body));
    const query: Record<string, string | string[]> = {};
    for (const [name, value] of input.target.searchParams) {
      const had = query[name];
      query[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
    }
    const signer = new modules.SignatureV4({ credentials: () => Promise.resolve(credentials), region, service: 'bedrock', sha256: Sha256 });
    const signed = await signer.sign({
      method: input.method,
      protocol: input.target.protocol,
      hostname: input.target.hostname,
      ...(input.target.port !== '' && { port: Number(input.target.port) }),
      // As it goes on the wire: the signer encodes it once more, as non-S3 SigV4 wants.
      path: input.target.pathname,
      query,
      headers,
      body: input.body,
    });
    return { headers: { ...signed.headers } };
  }

  private async providerOf(): Promise<() => Promise<AwsCredentials>> {
    const given = this.options.credentials;
    if (typeof given === 'function') return given;
    if (given) return () => Promise.resolve(given);
    return (await this.loadChain())();
  }
}

function missingPackage(name: string, error: unknown): string {
  return `signing it for the upstream takes ${name}, which could not be loaded (${(error as Error).message}): install ${SIGNING_PACKAGES.join(' and ')} (the AWS SDK's own)`;
}

function noCredentials(error: unknown): string {
  return `signing it for the upstream takes AWS credentials of your own (never the application's), and none were found (${(error as Error).message}): give them as the AWS SDK reads them (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, SSO …)`;
}

/** Record mode's 501 message for a request `sign` refused. */
export function recordRefusal(reason: string): string {
  return `Understudy's record mode cannot forward this SigV4-signed Bedrock request (its signature covers Understudy's host): ${reason}; in process, RecordOptions.aws gives the credentials and the region. A Bedrock API key (AWS_BEARER_TOKEN_BEDROCK) is forwarded as it is.`;
}
