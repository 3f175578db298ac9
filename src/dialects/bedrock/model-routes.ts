// Where Bedrock Runtime's model operations live: `/model/{modelId}/<operation>`, and the same under
// `/bedrock` (a base URL with a path of its own). The AWS client percent-encodes the model id (a
// version's `:` as `%3A`, an ARN's `/` as `%2F`); the route table decodes each segment after
// matching, so an encoded `/` stays inside the one parameter.

import type { ChatDialect, RouteSpec } from '../dialect.js';
import type { WireContext } from '../dialect.js';
import { fail } from './wording.js';

/** The two routes of one model operation, e.g. `converse-stream`. */
export function modelRoutes(operationPath: string, operation: string, dialect: ChatDialect): RouteSpec[] {
  return ['', '/bedrock'].map((prefix) => ({
    method: 'POST' as const,
    path: `${prefix}/model/{modelId}/${operationPath}`,
    operation,
    dialect,
  }));
}

/** The longest model identifier the API's model allows. */
const MODEL_ID_MAX = 2048;

/** The route's model id (decoded): a foundation model, an inference profile or an ARN. */
export function modelIdOf(wire: Pick<WireContext, 'params'>): string {
  const id = wire.params.modelId ?? '';
  if (id.length === 0 || id.length > MODEL_ID_MAX || /\s/.test(id)) fail('modelId', 'The provided model identifier is invalid.');
  return id;
}

/** The response header the AWS client reads `$metadata.requestId` from. */
export function requestIdHeader(requestId: string): Record<string, string> {
  return { 'x-amzn-requestid': requestId };
}
