// OpenAI's image routes and Azure's (deployment and v1), as info routes the journal records —
// answered from the session's scripted images and the default picture, never from a chat script
// — and the route that serves a `url` answer's image back from the session's store.

import type { DialectRegistration, InfoAnswer, InfoAsk, InfoRouteSpec, WireContext } from '../dialect.js';
import { IMAGE_URL_LIMITS, imageUrlsOf } from '../images-kit/image-urls.js';
import { encodeOpenAIError } from '../openai/encode-error.js';
import { openaiChat } from '../openai-chat/index.js';
import { AZURE_CHAT_VERSIONS, azure } from '../openai-hosts/azure.js';
import { datedVersion, encodeAzureError, v1Version, type VersionRule } from '../openai-hosts/azure-service.js';
import { hostRegistration } from '../openai-hosts/host-dialect.js';
import { answerOpenAIImages, type ImagesHost } from './answer.js';

/** Where a `url` answer's images are served from (under the session's `/s/{id}` prefix). */
export const IMAGE_URL_PATH = '/v1/understudy-images/{name}';

const OPENAI: ImagesHost = { encodeError: encodeOpenAIError, catalogue: true };

function versionCheck(rule: VersionRule): ImagesHost['before'] {
  return (ask) => rule({ query: ask.query ?? new URLSearchParams() } as WireContext);
}

const AZURE_DEPLOYMENT: ImagesHost = {
  encodeError: encodeAzureError,
  before: versionCheck(datedVersion(AZURE_CHAT_VERSIONS)),
  modelOf: (ask) => ask.params?.deployment,
  fallbackFamily: 'gpt-image',
  catalogue: false,
};
const AZURE_V1: ImagesHost = {
  encodeError: encodeAzureError,
  before: versionCheck(v1Version),
  fallbackFamily: 'gpt-image',
  catalogue: false,
};

const azureDialect = hostRegistration(azure).routes[0].dialect;

function route(path: string, operation: 'generate' | 'edit', journalAs: string, host: ImagesHost, dialect = openaiChat): InfoRouteSpec {
  return {
    method: 'POST',
    path,
    dialect,
    ...(operation === 'edit' && { bodyAs: 'bytes' as const }),
    answer: (ask: InfoAsk) => answerOpenAIImages(operation, host, ask),
    journalAs,
    // A `url` answer keeps its bytes in the session's store, which its GET reads.
    stateful: true,
  };
}

function servedImage(ask: InfoAsk): InfoAnswer {
  const name = ask.params?.name ?? '';
  const image = imageUrlsOf(ask.state).get(name);
  if (!image) {
    return encodeOpenAIError({
      kind: 'not_found',
      status: 404,
      code: 'image_not_found',
      param: null,
      message: `Understudy session "${ask.state.sessionId}" keeps no image ${JSON.stringify(name)}: it keeps the latest ${IMAGE_URL_LIMITS.images} images answered as url (${IMAGE_URL_LIMITS.bytes} bytes at most), and reset empties it.`,
    });
  }
  return { status: 200, headers: { 'content-type': image.contentType, 'cache-control': 'no-store' }, body: image.bytes };
}

const operations = (base: string, journal: string, host: ImagesHost, dialect = openaiChat) => [
  route(`${base}/images/generations`, 'generate', `${journal}.images.generate`, host, dialect),
  route(`${base}/images/edits`, 'edit', `${journal}.images.edit`, host, dialect),
];

export const openaiImagesRegistration: DialectRegistration = {
  routes: [],
  providerPaths: {},
  infoRoutes: [
    ...operations('/v1', 'openai', OPENAI),
    ...operations('/openai/v1', 'openai', OPENAI),
    ...operations('/openai/deployments/{deployment}', 'azure', AZURE_DEPLOYMENT, azureDialect),
    ...operations('/azure/openai/deployments/{deployment}', 'azure', AZURE_DEPLOYMENT, azureDialect),
    ...operations('/azure/openai/v1', 'azure-v1', AZURE_V1, azureDialect),
    { method: 'GET', path: IMAGE_URL_PATH, dialect: openaiChat, answer: servedImage, stateful: true },
  ],
};
