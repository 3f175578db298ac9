// Where Converse requests arrive: `POST /model/{modelId}/converse` and `/converse-stream`, at the
// server's origin (the AWS client's `endpoint`) and under `/bedrock`. CountTokens is registered
// beside them, in the registry (it counts InvokeModel bodies too).

import type { DialectRegistration } from '../dialect.js';
import { modelRoutes } from '../bedrock/model-routes.js';
import { bedrockConverse } from './index.js';
import { CONVERSE, CONVERSE_STREAM } from './operations.js';

export const bedrockConverseRegistration: DialectRegistration = {
  routes: [...modelRoutes('converse', CONVERSE, bedrockConverse), ...modelRoutes('converse-stream', CONVERSE_STREAM, bedrockConverse)],
  // The AWS client takes the origin as its endpoint and adds /model/… itself.
  providerPaths: { bedrock: '', 'bedrock-prefixed': '/bedrock' },
};
