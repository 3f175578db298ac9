// An InvokeModel body to the neutral request: the model id in the path chooses the body's family
// (model-family.ts), that family's decoder checks and reads it, and the operation, not the body,
// says whether to stream.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest } from '../../core/model.js';
import type { WireContext } from '../dialect.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import { decodeAnthropicBody } from './decode-anthropic.js';
import { decodeNovaBody } from './decode-nova.js';
import { decodeTitanBody } from './decode-titan.js';
import { familyOfBody, familyOfModel, type InvokeFamily } from './model-family.js';
import { expectObject, refuse } from './wording.js';

export const STREAM_OPERATION = 'bedrock.invokeModelWithResponseStream';

const ANSWERED = 'Understudy answers InvokeModel bodies of Anthropic Claude, Amazon Titan Text and Amazon Nova models';

/** The family whose body a request to `modelId` must carry; refuses the families Understudy does not answer. */
export function invokeFamily(modelId: string, body: unknown): InvokeFamily {
  const family = familyOfModel(modelId);
  if (typeof family === 'string') return family;
  if (family?.unanswered === 'embeddings') {
    refuse(
      `Understudy answers the text embedding models of Amazon Titan and Cohere on InvokeModel, not "${modelId}" (image and multimodal embeddings are not answered yet). ${ANSWERED}.`,
      'modelId',
    );
  }
  if (family?.unanswered === 'other') {
    refuse(`${ANSWERED}; "${modelId}" is none of them. Converse and ConverseStream speak one body for every model.`, 'modelId');
  }
  const sniffed = familyOfBody(body);
  if (sniffed === undefined) refuse(`${ANSWERED}; neither the model id "${modelId}" nor the body says which one this is.`, 'modelId');
  return sniffed;
}

/** Decodes a body for `modelId`, throwing its refusal (a WireError). */
export function decodeInvokeBody(body: unknown, modelId: string, stream: boolean): ChatRequest {
  const family = invokeFamily(modelId, body);
  const object = expectObject(body, '#');
  const request =
    family === 'anthropic'
      ? decodeAnthropicBody(object, modelId)
      : family === 'titan-text'
        ? decodeTitanBody(object, modelId)
        : decodeNovaBody(object, modelId);
  request.stream = stream;
  request.streamUsage = stream;
  families.set(request, family);
  return request;
}

/** The family each decoded request's body was read as (its model id may name none). */
const families = new WeakMap<ChatRequest, InvokeFamily>();

/** The family a decoded request was read as; by its model id for a request this module did not make. */
export function familyOfRequest(request: ChatRequest): InvokeFamily {
  const known = families.get(request);
  if (known) return known;
  const family = familyOfModel(request.model);
  return typeof family === 'string' ? family : 'nova';
}

export function decodeInvokeRequest(body: unknown, wire: WireContext): ChatRequest | NeutralError {
  return refusalOr(() => decodeInvokeBody(body, wire.params.modelId, wire.operation === STREAM_OPERATION));
}
