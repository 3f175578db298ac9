// Record mode signs a SigV4-signed Bedrock request again for the upstream (decision 0017 item 4):
// the upstream here is a capture server that checks each request's signature as AWS would — over
// its own host, the path as received (encoded once more), the body's hash and the x-amz-date sent —
// recomputing it with @smithy/signature-v4 and the recorder's credentials, and then hands the
// request to a second Understudy (which finds its session by the access key id) for the answer.
// The application's client is the real @aws-sdk/client-bedrock-runtime, signing with its own key.

import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { test } from 'node:test';

import { ConverseCommand, ConverseStreamCommand, type Message } from '@aws-sdk/client-bedrock-runtime';

import { startUnderstudy } from '../src/client/index.js';
import { BedrockSigner, recordRefusal, regionOfHost, scopeRegion, type AwsCredentials } from '../src/transport/bedrock-resign.js';
import { bedrockClient } from './support/bedrock.js';
import { recordedFiles, recordingDir, startUpstream, STORY, UPSTREAM_KEY } from './support/record-replay.js';
import { startVerifyingUpstream } from './support/sigv4-upstream.js';

const MODEL = 'anthropic.claude-3-5-sonnet-20240620-v1:0';
const RECORDER: AwsCredentials = {
  accessKeyId: UPSTREAM_KEY,
  secretAccessKey: 'recorder-secret-5150',
  sessionToken: 'recorder-session-77',
};

const messages: Message[] = [{ role: 'user', content: [{ text: 'Tell me a story.' }] }];

/** One Converse (or ConverseStream) call, signed by the application with its own key, recorded
 * through the verifying upstream; gives the text the client saw and what the upstream saw. */
async function recordOne(options: {
  stream: boolean;
  aws?: { region?: string; credentials?: AwsCredentials };
  verifyWith?: AwsCredentials;
}) {
  const answerer = await startUpstream();
  const upstream = await startVerifyingUpstream(answerer.mock.url('bedrock'), options.verifyWith ?? RECORDER);
  const dir = recordingDir();
  const recorder = await startUnderstudy({
    record: { dir, upstreams: { bedrock: upstream.url }, ...(options.aws && { aws: options.aws }) },
  });
  const client = bedrockClient(recorder, { apiKey: 'AKIAAPPLICATION', http: 'http1' });
  try {
    let text = '';
    if (options.stream) {
      const answer = await client.send(new ConverseStreamCommand({ modelId: MODEL, messages }));
      for await (const event of answer.stream ?? []) text += event.contentBlockDelta?.delta?.text ?? '';
    } else {
      const answer = await client.send(new ConverseCommand({ modelId: MODEL, messages }));
      text = (answer.output?.message?.content ?? []).map((b) => b.text ?? '').join('');
    }
    return { text, verdicts: upstream.verdicts, files: recordedFiles(dir), host: new URL(upstream.url).host };
  } finally {
    client.destroy();
    await recorder.close();
    await upstream.close();
    await answerer.mock.close();
  }
}

for (const stream of [false, true]) {
  const mode = stream ? 'ConverseStream' : 'Converse';
  test(`a ${mode} request the application signed is signed again, validly for the upstream's host and the path encoded once more, with the recorder's credentials`, async () => {
    const { text, verdicts, files, host } = await recordOne({ stream, aws: { region: 'eu-west-3', credentials: RECORDER } });
    assert.equal(text, STORY);
    assert.equal(verdicts.length, 1);
    const [seen] = verdicts;
    assert.ok(seen.valid, 'the signature holds for the upstream');
    assert.deepEqual(seen.scope, [UPSTREAM_KEY, 'eu-west-3', 'bedrock']);
    assert.equal(seen.path, `/model/${encodeURIComponent(MODEL)}/${stream ? 'converse-stream' : 'converse'}`);
    assert.equal(seen.headers.host, host);
    assert.ok(!JSON.stringify(seen.headers).includes('AKIAAPPLICATION'), "nothing of the application's signature is sent");
    assert.equal(files.length, 1);
    for (const secret of [RECORDER.secretAccessKey, RECORDER.sessionToken ?? '', 'AKIAAPPLICATION', 'x-amz-date', 'aws4_request']) {
      assert.ok(!files[0].text.includes(secret), `the recording holds no "${secret}"`);
    }
  });
}

test('without RecordOptions.aws.region, a host that names no region is signed for the region the application signed for', async () => {
  const { verdicts } = await recordOne({ stream: false, aws: { credentials: RECORDER } });
  assert.ok(verdicts[0].valid);
  assert.equal(verdicts[0].scope[1], 'us-east-1');
});

test("without RecordOptions.aws.credentials, the AWS SDK's default chain gives the recorder's credentials (here from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)", async () => {
  const names = ['AWS_PROFILE', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_EC2_METADATA_DISABLED'];
  const saved = names.map((name) => process.env[name]);
  delete process.env.AWS_PROFILE;
  process.env.AWS_ACCESS_KEY_ID = UPSTREAM_KEY;
  process.env.AWS_SECRET_ACCESS_KEY = 'chain-secret-3030';
  process.env.AWS_SESSION_TOKEN = 'chain-session-1';
  process.env.AWS_EC2_METADATA_DISABLED = 'true';
  try {
    const fromEnv = { accessKeyId: UPSTREAM_KEY, secretAccessKey: 'chain-secret-3030', sessionToken: 'chain-session-1' };
    const { text, verdicts } = await recordOne({ stream: false, verifyWith: fromEnv });
    assert.equal(text, STORY);
    assert.ok(verdicts[0].valid);
  } finally {
    names.forEach((name, at) => {
      if (saved[at] === undefined) delete process.env[name];
      else process.env[name] = saved[at];
    });
  }
});

/** The canonical request and signature of SigV4 written out by hand, as AWS documents them, for
 * one request: the signer's output is compared with it. */
function handSigned(credentials: AwsCredentials, longDate: string, region: string, canonicalPath: string, host: string, body: string) {
  const payload = createHash('sha256').update(body).digest('hex');
  const headers: [string, string][] = (
    [
      ['content-length', String(Buffer.byteLength(body))],
      ['content-type', 'application/json'],
      ['host', host],
      ['x-amz-content-sha256', payload],
      ['x-amz-date', longDate],
      ['x-amz-security-token', credentials.sessionToken ?? ''],
    ] as [string, string][]
  ).sort(([a], [b]) => (a < b ? -1 : 1));
  const canonical = [
    'POST',
    canonicalPath,
    '',
    ...headers.map(([n, v]) => `${n}:${v}`),
    '',
    headers.map(([n]) => n).join(';'),
    payload,
  ].join('\n');
  const day = longDate.slice(0, 8);
  const scope = `${day}/${region}/bedrock/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', longDate, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  let key: Buffer = createHmac('sha256', `AWS4${credentials.secretAccessKey}`).update(day).digest();
  for (const part of [region, 'bedrock', 'aws4_request']) key = createHmac('sha256', key).update(part).digest();
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${headers.map(([n]) => n).join(';')}, Signature=${signature}`;
}

test("the signature for the real endpoint's host: its region, and the model id's %3A as %253A in the canonical path", async () => {
  const target = new URL(`https://bedrock-runtime.us-west-2.amazonaws.com/model/${encodeURIComponent(MODEL)}/converse`);
  const body = JSON.stringify({ messages });
  const signed = await new BedrockSigner({ region: 'eu-west-3', credentials: RECORDER }).sign({
    method: 'POST',
    target,
    headers: {
      'content-type': 'application/json',
      host: target.host,
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIAAPPLICATION/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=00',
      'x-amz-date': '20260101T000000Z',
      'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
    },
    body,
    authorization: 'AWS4-HMAC-SHA256 Credential=AKIAAPPLICATION/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=00',
  });
  assert.ok('headers' in signed);
  const longDate = String(signed.headers['x-amz-date']);
  assert.notEqual(longDate, '20260101T000000Z', 'signed now, not at the application’s date');
  const path = '/model/anthropic.claude-3-5-sonnet-20240620-v1%253A0/converse';
  assert.equal(signed.headers.authorization, handSigned(RECORDER, longDate, 'us-west-2', path, target.host, body));
});

test('the Bedrock endpoint hosts name their region; a SigV4 credential scope names its region', () => {
  assert.equal(regionOfHost('bedrock-runtime.us-west-2.amazonaws.com'), 'us-west-2');
  assert.equal(regionOfHost('bedrock-runtime-fips.us-gov-west-1.amazonaws.com'), 'us-gov-west-1');
  assert.equal(regionOfHost('bedrock-runtime.cn-north-1.amazonaws.com.cn'), 'cn-north-1');
  assert.equal(regionOfHost('127.0.0.1'), undefined);
  assert.equal(regionOfHost('bedrock.us-west-2.amazonaws.com'), undefined);
  assert.equal(scopeRegion('AWS4-HMAC-SHA256 Credential=AKID/20260101/ap-south-1/bedrock/aws4_request, SignedHeaders=host'), 'ap-south-1');
  assert.equal(scopeRegion('Bearer abc'), undefined);
});

test('when @smithy/signature-v4 cannot be loaded, the refusal says what to install', async () => {
  const signer = new BedrockSigner({ credentials: RECORDER }, () =>
    Promise.reject(new Error("Cannot find package '@smithy/signature-v4'")),
  );
  const refused = await signer.sign({
    method: 'POST',
    target: new URL('https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse'),
    headers: {},
    body: '{}',
    authorization: 'AWS4-HMAC-SHA256 Credential=A/20260101/us-east-1/bedrock/aws4_request',
  });
  assert.ok('refusal' in refused);
  assert.match(refused.refusal, /install @smithy\/signature-v4 and @aws-sdk\/credential-provider-node/);
  assert.match(
    recordRefusal(refused.refusal),
    /^Understudy's record mode cannot forward .* A Bedrock API key \(AWS_BEARER_TOKEN_BEDROCK\) is forwarded/,
  );
});

test("nothing of the application's signing is sent on: its session token, date and signature", async () => {
  const target = new URL('https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse');
  const applications =
    'AWS4-HMAC-SHA256 Credential=AKIAAPPLICATION/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=00';
  const signed = await new BedrockSigner({ credentials: { accessKeyId: 'AKIARECORDER', secretAccessKey: 'recorder-secret' } }).sign({
    method: 'POST',
    target,
    headers: {
      host: target.host,
      authorization: applications,
      'x-amz-date': '20260101T000000Z',
      'x-amz-security-token': 'application-session-token',
      'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
      'amz-sdk-invocation-id': 'kept',
    },
    body: '{}',
    authorization: applications,
  });
  assert.ok('headers' in signed);
  assert.equal(signed.headers['x-amz-security-token'], undefined);
  assert.equal(signed.headers['x-amz-content-sha256'], createHash('sha256').update('{}').digest('hex'));
  assert.equal(signed.headers['amz-sdk-invocation-id'], 'kept');
  assert.match(String(signed.headers.authorization), /^AWS4-HMAC-SHA256 Credential=AKIARECORDER\//);
});
