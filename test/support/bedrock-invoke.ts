// The AWS Bedrock Runtime client as the InvokeModel tests use it: made in one place (until the port
// speaks HTTP/2, over the client's HTTP/1.1 handler; the default handler is the one-line change
// below), and the model bodies it returns read back as JSON.

import {
  BedrockRuntimeClient,
  InvokeModelCommand,
  InvokeModelWithResponseStreamCommand,
  type InvokeModelCommandOutput,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';

export const CLIENT_TIMEOUT_MS = 10_000;

/** A client whose access key id (or, with `auth: 'bearer'`, its Bedrock API key, as
 * AWS_BEARER_TOKEN_BEDROCK gives it) picks the session (`apiKey`), one attempt, a bounded wait. */
export function bedrockClient(endpoint: string, apiKey: string, maxAttempts = 1, auth: 'sigv4' | 'bearer' = 'sigv4'): BedrockRuntimeClient {
  return new BedrockRuntimeClient({
    endpoint,
    region: 'us-east-1',
    ...(auth === 'bearer'
      ? { token: { token: apiKey }, authSchemePreference: ['httpBearerAuth'] }
      : { credentials: { accessKeyId: apiKey, secretAccessKey: 'understudy-secret' } }),
    maxAttempts,
    requestHandler: new NodeHttpHandler({ connectionTimeout: CLIENT_TIMEOUT_MS, requestTimeout: CLIENT_TIMEOUT_MS }),
  });
}

/** InvokeModel with a JSON body; the answer's body parsed, and the whole output. */
export async function invoke(
  client: BedrockRuntimeClient,
  modelId: string,
  body: unknown,
): Promise<{ json: Record<string, unknown>; output: InvokeModelCommandOutput }> {
  const output = await client.send(
    new InvokeModelCommand({
      modelId,
      body: typeof body === 'string' ? body : JSON.stringify(body),
      contentType: 'application/json',
      accept: 'application/json',
    }),
  );
  return { json: JSON.parse(new TextDecoder().decode(output.body)) as Record<string, unknown>, output };
}

/** InvokeModelWithResponseStream: each chunk's model event, parsed, in order (throws what the stream throws). */
export async function invokeStream(
  client: BedrockRuntimeClient,
  modelId: string,
  body: unknown,
  seen: Record<string, unknown>[] = [],
  options: { abortSignal?: AbortSignal } = {},
): Promise<{ events: Record<string, unknown>[]; contentType: string | undefined }> {
  const output = await client.send(
    new InvokeModelWithResponseStreamCommand({
      modelId,
      body: JSON.stringify(body),
      contentType: 'application/json',
      accept: 'application/json',
    }),
    options,
  );
  for await (const part of output.body ?? []) {
    if (part.chunk?.bytes) seen.push(JSON.parse(new TextDecoder().decode(part.chunk.bytes)) as Record<string, unknown>);
  }
  return { events: seen, contentType: output.contentType };
}

/** What an SDK call threw (or undefined when it did not). */
export async function thrown(promise: Promise<unknown>): Promise<(Error & { $metadata?: { httpStatusCode?: number } }) | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

export const CLAUDE = 'anthropic.claude-3-haiku-20240307-v1:0';
export const TITAN = 'amazon.titan-text-express-v1';
export const NOVA = 'us.amazon.nova-lite-v1:0';
