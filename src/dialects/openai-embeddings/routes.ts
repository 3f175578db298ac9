// OpenAI's embeddings routes and Azure's: info routes (answered from the session's scripted
// vectors and the derived ones, never from a chat script) that the journal records. Chat requests
// never reach them.

import type { WireContext } from '../dialect.js';
import { withScriptedAct } from '../embeddings-kit/vectors-for.js';
import type { DialectRegistration, InfoAsk, InfoRouteSpec } from '../dialect.js';
import { encodeOpenAIError } from '../openai/encode-error.js';
import { openaiChat } from '../openai-chat/index.js';
import { AZURE_CHAT_VERSIONS, azure } from '../openai-hosts/azure.js';
import { datedVersion, encodeAzureError, v1Version, type VersionRule } from '../openai-hosts/azure-service.js';
import { hostRegistration } from '../openai-hosts/host-dialect.js';
import { answerOpenAIEmbeddings, type EmbeddingsHost } from './answer.js';
import { answerMistralEmbeddings } from './mistral.js';
import { mistral } from '../openai-hosts/mistral.js';
import { groq } from '../openai-hosts/groq.js';

export const OPENAI_EMBEDDINGS_OPERATION = 'openai.embeddings';

const OPENAI: EmbeddingsHost = { encodeError: encodeOpenAIError, catalogue: true };

/** An Azure version rule read from an info route's query. */
function versionCheck(rule: VersionRule): EmbeddingsHost['before'] {
  return (ask) => rule({ query: ask.query ?? new URLSearchParams() } as WireContext);
}

const AZURE_DEPLOYMENT: EmbeddingsHost = {
  encodeError: encodeAzureError,
  before: versionCheck(datedVersion(AZURE_CHAT_VERSIONS)),
  modelOf: (ask) => ask.params?.deployment,
  catalogue: false,
};
// Groq serves the same request and answer on its OpenAI-compatible base; its errors are OpenAI's.
const GROQ: EmbeddingsHost = { encodeError: encodeOpenAIError, catalogue: false };
const AZURE_V1: EmbeddingsHost = { encodeError: encodeAzureError, before: versionCheck(v1Version), catalogue: false };

// Refusals before the body (an unknown session, a missing key) in Azure's shape on its routes.
const azureDialect = hostRegistration(azure).routes[0].dialect;
const mistralDialect = hostRegistration(mistral).routes[0].dialect;
const groqDialect = hostRegistration(groq).routes[0].dialect;

function route(path: string, operation: string, host: EmbeddingsHost, dialect = openaiChat): InfoRouteSpec {
  return {
    method: 'POST',
    path,
    dialect,
    answer: withScriptedAct((ask: InfoAsk) => answerOpenAIEmbeddings(host, ask)),
    journalAs: operation,
  };
}

export const openaiEmbeddingsRegistration: DialectRegistration = {
  routes: [],
  providerPaths: {},
  infoRoutes: [
    route('/v1/embeddings', OPENAI_EMBEDDINGS_OPERATION, OPENAI),
    route('/openai/v1/embeddings', OPENAI_EMBEDDINGS_OPERATION, OPENAI),
    route('/openai/deployments/{deployment}/embeddings', 'azure.embeddings', AZURE_DEPLOYMENT, azureDialect),
    route('/azure/openai/deployments/{deployment}/embeddings', 'azure.embeddings', AZURE_DEPLOYMENT, azureDialect),
    route('/azure/openai/v1/embeddings', 'azure-v1.embeddings', AZURE_V1, azureDialect),
    route('/groq/openai/v1/embeddings', 'groq.embeddings', GROQ, groqDialect),
    {
      method: 'POST',
      path: '/mistral/v1/embeddings',
      dialect: mistralDialect,
      answer: withScriptedAct(answerMistralEmbeddings),
      journalAs: 'mistral.embeddings',
    },
  ],
};
