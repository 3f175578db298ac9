// Where the AWS client sends InvokeModel and InvokeModelWithResponseStream: `/model/{modelId}/…`
// with the model id percent-encoded in one segment (the router decodes it), also under `/bedrock`.
// A request to an embedding model goes to embed.ts instead.

import type { DialectRegistration, RouteSpec } from '../dialect.js';
import { STREAM_OPERATION } from './decode-request.js';
import { embeddingsDivert } from './embed.js';
import { bedrockInvoke } from './index.js';

function routes(prefix: string): RouteSpec[] {
  return [
    {
      method: 'POST',
      path: `${prefix}/model/{modelId}/invoke`,
      operation: 'bedrock.invokeModel',
      dialect: bedrockInvoke,
      divert: embeddingsDivert(false),
    },
    {
      method: 'POST',
      path: `${prefix}/model/{modelId}/invoke-with-response-stream`,
      operation: STREAM_OPERATION,
      dialect: bedrockInvoke,
      divert: embeddingsDivert(true),
    },
  ];
}

export const bedrockInvokeRegistration: DialectRegistration = {
  routes: [...routes(''), ...routes('/bedrock')],
  // The AWS client's `endpoint` is the origin (it adds `/model/…` itself).
  providerPaths: { bedrock: '' },
};
