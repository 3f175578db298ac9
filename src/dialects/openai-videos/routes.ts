// OpenAI's video routes (`/v1/videos…`, also under `/openai`) and Azure's v1 routes that mirror
// them (`/azure/openai/v1/videos…`, Azure's api-version rule and error shape): info routes the
// journal records, over the session's one video store. Chat requests never reach them.

import type { DialectRegistration, InfoAnswer, InfoAsk, InfoRouteSpec, WireContext } from '../dialect.js';
import { encodeOpenAIError } from '../openai/encode-error.js';
import { openaiChat } from '../openai-chat/index.js';
import { azure } from '../openai-hosts/azure.js';
import { encodeAzureError, v1Version } from '../openai-hosts/azure-service.js';
import { hostRegistration } from '../openai-hosts/host-dialect.js';
import { answerContent, answerCreate, answerDelete, answerList, answerRemix, answerRetrieve, type VideosHost } from './answer.js';

const OPENAI: VideosHost = { encodeError: encodeOpenAIError };
const AZURE_V1: VideosHost = {
  encodeError: encodeAzureError,
  before: (ask) => v1Version({ query: ask.query ?? new URLSearchParams() } as WireContext),
};
const azureDialect = hostRegistration(azure).routes[0].dialect;

function routes(base: string, operation: string, host: VideosHost, dialect = openaiChat): InfoRouteSpec[] {
  const route = (
    method: InfoRouteSpec['method'],
    path: string,
    name: string,
    answer: (host: VideosHost, ask: InfoAsk) => InfoAnswer | Promise<InfoAnswer>,
    bodyAs?: 'bytes',
  ): InfoRouteSpec => ({
    method,
    path: `${base}${path}`,
    dialect,
    answer: (ask) => answer(host, ask),
    journalAs: `${operation}.${name}`,
    ownerState: true,
    ...(bodyAs && { bodyAs }),
  });
  return [
    route('POST', '', 'create', answerCreate, 'bytes'),
    route('GET', '', 'list', answerList),
    route('GET', '/{video}', 'retrieve', answerRetrieve),
    route('DELETE', '/{video}', 'delete', answerDelete),
    route('GET', '/{video}/content', 'content', answerContent),
    route('POST', '/{video}/remix', 'remix', answerRemix),
  ];
}

export const openaiVideosRegistration: DialectRegistration = {
  routes: [],
  providerPaths: {},
  infoRoutes: [
    ...routes('/v1/videos', 'openai.videos', OPENAI),
    ...routes('/openai/v1/videos', 'openai.videos', OPENAI),
    ...routes('/azure/openai/v1/videos', 'azure-v1.videos', AZURE_V1, azureDialect),
  ],
};
