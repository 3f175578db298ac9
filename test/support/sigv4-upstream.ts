// An upstream for Bedrock's SigV4 tests: a capture server (node:http on 127.0.0.1) that checks each
// request's signature as AWS would — over its own host, not the Host received, the path as
// received, the signed headers and the x-amz-date sent — recomputing it with @smithy/signature-v4
// and the credentials it expects, answers 403 to a wrong one, and hands a right one to another
// server (a second Understudy, which finds its session by the access key id) for the answer.

import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { SignatureV4 } from '@smithy/signature-v4';

import { scopeRegion, type AwsCredentials } from '../../src/transport/bedrock-resign.js';

class Sha256 {
  private readonly hash;
  constructor(secret?: unknown) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', Buffer.from(secret as string | Uint8Array));
  }
  update(data: string | Uint8Array) {
    this.hash.update(data);
  }
  digest() {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}

export interface Verdict {
  valid: boolean;
  /** The credential scope: key id, region, service. */
  scope: string[];
  path: string;
  headers: IncomingMessage['headers'];
}

/** The signature AWS would compute for the received request, given the signer's credentials. */
async function expectedAuthorization(req: IncomingMessage, body: string, host: string, credentials: AwsCredentials): Promise<string> {
  const auth = req.headers.authorization ?? '';
  const signedNames = /SignedHeaders=([^,\s]+)/.exec(auth)?.[1]?.split(';') ?? [];
  const region = scopeRegion(auth) ?? 'none';
  const headers: Record<string, string> = {};
  for (const name of signedNames) headers[name] = name === 'host' ? host : String(req.headers[name] ?? '');
  const url = new URL(req.url ?? '/', `http://${host}`);
  const amzDate = String(req.headers['x-amz-date']);
  const signingDate = new Date(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  );
  const signer = new SignatureV4({ credentials, region, service: 'bedrock', sha256: Sha256 });
  const signed = await signer.sign(
    { method: req.method ?? 'POST', protocol: 'http:', hostname: url.hostname, path: url.pathname, query: {}, headers, body },
    { signingDate },
  );
  return signed.headers.authorization ?? '';
}

/** The capture server: checks each request's signature, answers 403 to a wrong one (as AWS does)
 * and passes a right one to `answerer`. */
export async function startVerifyingUpstream(answerer: string, credentials: AwsCredentials) {
  const verdicts: Verdict[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const own = `127.0.0.1:${(server.address() as AddressInfo).port}`;
        const auth = req.headers.authorization ?? '';
        const valid =
          auth === (await expectedAuthorization(req, body, own, credentials)) &&
          req.headers['x-amz-content-sha256'] === createHash('sha256').update(body).digest('hex') &&
          req.headers['x-amz-security-token'] === credentials.sessionToken;
        const scope = /Credential=([^,\s]+)/.exec(auth)?.[1]?.split('/') ?? [];
        verdicts.push({ valid, scope: [scope[0], scope[2], scope[3]], path: req.url ?? '', headers: req.headers });
        if (!valid) {
          res.writeHead(403, { 'content-type': 'application/json', 'x-amzn-errortype': 'InvalidSignatureException' });
          res.end(JSON.stringify({ message: 'The request signature we calculated does not match the signature you provided.' }));
          return;
        }
        const answer = await fetch(`${answerer}${req.url}`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body,
        });
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    verdicts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
