// Every dialect the server speaks. A new dialect adds its folder and one line here.

import { anthropicMessagesRegistration } from './anthropic-messages/routes.js';
import { azureVideoJobsRegistration } from './azure-video-jobs/routes.js';
import { countTokensRoutes } from './bedrock/count-tokens.js';
import { countConverseTokens } from './bedrock-converse/decode-request.js';
import { bedrockConverse } from './bedrock-converse/index.js';
import { bedrockConverseRegistration } from './bedrock-converse/routes.js';
import { invokeBodyInputTokens } from './bedrock-invoke/count-tokens.js';
import { bedrockInvokeRegistration } from './bedrock-invoke/routes.js';
import { cohereV1Registration } from './cohere-v1/routes.js';
import { COHERE_EMBED_ROUTES } from './cohere-v2/embed.js';
import { cohereV2Registration } from './cohere-v2/routes.js';
import type { DialectRegistration } from './dialect.js';
import { geminiEmbedRegistration } from './gemini/embed-routes.js';
import { geminiImagenRegistration } from './gemini/imagen-routes.js';
import { geminiRegistration } from './gemini/routes.js';
import { geminiVideoRegistration } from './gemini/video-routes.js';
import { OLLAMA_EMBED_ROUTES } from './ollama/embed-routes.js';
import { ollamaRegistration } from './ollama/routes.js';
import { openaiChatRegistration } from './openai-chat/routes.js';
import { openaiEmbeddingsRegistration } from './openai-embeddings/routes.js';
import { azureModelsRegistration } from './openai-hosts/azure-models.js';
import { openaiImagesRegistration } from './openai-images/routes.js';
import { openaiAudioRegistration } from './openai-audio/routes.js';
import { hostRegistration } from './openai-hosts/host-dialect.js';
import { OPENAI_HOSTS } from './openai-hosts/table.js';
import { openaiResponsesRegistration } from './openai-responses/routes.js';
import { openaiVideosRegistration } from './openai-videos/routes.js';
import { SHARED_MODEL_ROUTES } from './shared-model-routes.js';

export const DIALECTS: DialectRegistration[] = [
  openaiChatRegistration,
  openaiResponsesRegistration,
  anthropicMessagesRegistration,
  geminiRegistration,
  cohereV2Registration,
  ollamaRegistration,
  cohereV1Registration,
  ...OPENAI_HOSTS.map(hostRegistration),
  bedrockConverseRegistration,
  // Bedrock's CountTokens counts a Converse input or an InvokeModel body (`invokeModel:` its counter).
  {
    routes: [],
    providerPaths: {},
    infoRoutes: countTokensRoutes({ dialect: bedrockConverse, converse: countConverseTokens, invokeModel: invokeBodyInputTokens }),
  },
  bedrockInvokeRegistration,
  // `GET /v1/models`: OpenAI's, Anthropic's or Gemini's list, by the request's headers.
  { routes: [], providerPaths: {}, infoRoutes: SHARED_MODEL_ROUTES },
  openaiEmbeddingsRegistration,
  azureModelsRegistration,
  openaiAudioRegistration,
  geminiEmbedRegistration,
  geminiImagenRegistration,
  { routes: [], providerPaths: {}, infoRoutes: OLLAMA_EMBED_ROUTES },
  { routes: [], providerPaths: {}, infoRoutes: COHERE_EMBED_ROUTES },
  openaiImagesRegistration,
  openaiVideosRegistration,
  azureVideoJobsRegistration,
  geminiVideoRegistration,
];
