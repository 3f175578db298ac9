// Azure OpenAI. Deployment routes: `/openai/deployments/{deployment}/chat/completions` and
// `/openai/responses`, each with a dated `api-version`; the model is the deployment named by the
// path (the body's `model` may be left out, or null). The v1 routes (`/azure/openai/v1/…`, only under the
// prefix: `/openai/v1/…` is OpenAI's own) take no dated version and name the model in the body.
// Both answer with Azure's content filter results and refuse in Azure's service error shape.

import type { ChatRequest } from '../../core/model.js';
import type { WireContext } from '../dialect.js';
import { CHAT_FIELDS } from '../openai-chat/decode-request.js';
import { arrayOf, object, oneOf } from '../openai/field-rules.js';
import { azureChatAnswers, markStreamFlavour } from './azure-content-filter.js';
import { datedVersion, encodeAzureError, v1Version, type VersionRule } from './azure-service.js';
import type { HostOperation, JsonObject, OpenAIHost } from './host.js';

/** The dated versions the deployment routes take (Responses needs a 2025 one). */
export const AZURE_CHAT_VERSIONS = ['2024-10-21', '2025-04-01-preview'] as const;
export const AZURE_RESPONSES_VERSIONS = ['2025-04-01-preview'] as const;

/** Both spellings of a route: under the `/azure` prefix and without it. */
function bothPrefixes(path: string): string[] {
  return [path, `/azure${path}`];
}

/** An operation whose only rule of its own is the version (answers as the base dialect's). */
export function versioned(paths: readonly string[], rule: VersionRule): Pick<HostOperation, 'paths' | 'prepare'> {
  return { paths, prepare: (body, wire) => rule(wire) ?? body };
}

/** Chat Completions with Azure's version rule, content filter results and stream flavour. */
export function azureChat(paths: readonly string[], rule: VersionRule): HostOperation {
  return { ...versioned(paths, rule), ...azureChatAnswers, finish: (request, _body, wire) => markStreamFlavour(request, wire) };
}

const deploymentVersion = datedVersion(AZURE_CHAT_VERSIONS);

/** Chat Completions' members and Azure's own: `data_sources`, the "On Your Data" extension (its
 * parameters differ per source type and are let through). */
const DEPLOYMENT_CHAT_FIELDS = {
  ...CHAT_FIELDS,
  data_sources: arrayOf(
    object({ type: oneOf('azure_search', 'azure_cosmos_db', 'elasticsearch', 'pinecone', 'mongo_db'), parameters: object({}) }, [
      'type',
      'parameters',
    ]),
  ),
};

function deploymentOf(wire: WireContext): string {
  return wire.params.deployment as string;
}

export const azure: OpenAIHost = {
  id: 'azure',
  name: 'Azure OpenAI (deployment routes)',
  chat: {
    ...azureChat(bothPrefixes('/openai/deployments/{deployment}/chat/completions'), deploymentVersion),
    fields: DEPLOYMENT_CHAT_FIELDS,
    prepare(body, wire) {
      const refused = deploymentVersion(wire);
      if (refused) return refused;
      return body.model === undefined || body.model === null ? { ...body, model: deploymentOf(wire) } : body;
    },
    finish(request: ChatRequest, _body: JsonObject, wire) {
      const deployment = deploymentOf(wire);
      return markStreamFlavour(request.model === deployment ? request : { ...request, model: deployment }, wire);
    },
  },
  responses: versioned(bothPrefixes('/openai/responses'), datedVersion(AZURE_RESPONSES_VERSIONS)),
  // AzureOpenAI's `endpoint` (the SDK adds `/openai`).
  providerPaths: { azure: '/azure' },
  encodeError: encodeAzureError,
};

export const azureV1: OpenAIHost = {
  id: 'azure-v1',
  name: 'Azure OpenAI (v1 routes)',
  chat: azureChat(['/azure/openai/v1/chat/completions'], v1Version),
  responses: versioned(['/azure/openai/v1/responses'], v1Version),
  providerPaths: { 'azure-v1': '/azure/openai/v1' },
  encodeError: encodeAzureError,
};
