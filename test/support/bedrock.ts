// How the Bedrock tests make their AWS client: one place. It is the client as an app makes it, on
// its default handler (cleartext HTTP/2 to an http:// endpoint), unless a test pins the HTTP/1.1
// handler to prove that protocol too.

import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';

/** The SDKs' request timeout in these tests: nothing may hang. */
export const BEDROCK_TIMEOUT_MS = 10_000;

export interface BedrockClientOptions {
  /** The access key id (SigV4), which names the session; ignored when `token` is given. */
  apiKey?: string;
  /** Bearer mode (`AWS_BEARER_TOKEN_BEDROCK`): the token names the session. */
  token?: string;
  /** Attempts in all (1: no retries). */
  maxAttempts?: number;
  /** Which HTTP the client speaks: its default handler's cleartext HTTP/2 unless asked for its HTTP/1.1 one. */
  http?: 'http1' | 'http2';
  /** The base URL, when it is not the server's origin (`mock.url('bedrock-prefixed')`). */
  endpoint?: string;
}

export function bedrockClient(target: { url(provider: string): string }, options: BedrockClientOptions = {}): BedrockRuntimeClient {
  const http1 = (options.http ?? 'http2') === 'http1';
  return new BedrockRuntimeClient({
    region: 'us-east-1',
    endpoint: options.endpoint ?? target.url('bedrock'),
    maxAttempts: options.maxAttempts ?? 1,
    ...(options.token !== undefined
      ? { token: { token: options.token }, authSchemePreference: ['httpBearerAuth'] }
      : { credentials: { accessKeyId: options.apiKey ?? 'AKIAUNDERSTUDY', secretAccessKey: 'understudy-secret' } }),
    requestHandler: http1
      ? new NodeHttpHandler({ requestTimeout: BEDROCK_TIMEOUT_MS, connectionTimeout: BEDROCK_TIMEOUT_MS })
      : { requestTimeout: BEDROCK_TIMEOUT_MS },
  });
}
