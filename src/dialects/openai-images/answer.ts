// The answer to an OpenAI-shaped image request (generations and edits), for OpenAI's own routes
// and Azure's: decode, the host's checks, what the fixture scripts for the prompt, the images
// (scripted bytes or the default picture), and the body — JSON with `b64_json` or `url`, or the
// stream of partial images — with the journal's record of it.

import { isNeutralError, understudyConflict, type NeutralError } from '../../core/errors.js';
import type { ChatRequest, Usage } from '../../core/model.js';
import type { ScriptedImage } from '../../core/scripted-image.js';
import { countTokens } from '../../core/tokens.js';
import type { EncodedBody, InfoAnswer, InfoAsk } from '../dialect.js';
import { defaultPicture } from '../images-kit/default-picture.js';
import { imageUrlsOf } from '../images-kit/image-urls.js';
import { WireError } from '../wire-kit/wire-error.js';
import { decodeImageEdit } from './decode-edit.js';
import { decodeImageGeneration } from './decode-generate.js';
import type { ImageRequest } from './image-options.js';
import { outputTokensOf, type ImageFamily } from './models.js';
import { imageStream, imageStreamError, type StreamedImage } from './stream.js';

export interface ImagesHost {
  encodeError(error: NeutralError): EncodedBody;
  /** A refusal before the body is read (Azure's api-version), or undefined. */
  before?(ask: InfoAsk): NeutralError | undefined;
  /** The model the route names instead of the body (Azure's deployment). */
  modelOf?(ask: InfoAsk): string | undefined;
  /** The family of a model no family has (a deployment's own name): Azure deploys GPT image
   * models under names of the user's choosing. */
  fallbackFamily?: ImageFamily;
  /** Whether the session's model catalogue applies (OpenAI's own routes). */
  catalogue: boolean;
}

/** Tokens an input image of an edit counts (a number chosen here: docs/images.md). */
const INPUT_IMAGE_TOKENS = 256;
const CONTENT_TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

/** The request as the journal keeps it: the prompt as one user message (and whether it streamed). */
function journalRequest({ model, prompt, stream }: ImageRequest): ChatRequest {
  return {
    model,
    messages: [{ role: 'user', parts: [{ type: 'text', text: prompt }] }],
    tools: [],
    toolChoice: { type: 'none' },
    parallelToolCalls: false,
    output: { type: 'text' },
    stream,
    streamUsage: false,
    promptCaching: 'none',
  };
}

function notInCatalogue(model: string, ask: InfoAsk): NeutralError | undefined {
  const models = ask.state.models?.();
  if (models === undefined || models.includes(model)) return undefined;
  return {
    kind: 'not_found',
    status: 404,
    type: 'invalid_request_error',
    code: 'model_not_found',
    param: null,
    message: `The model \`${model}\` does not exist or you do not have access to it.`,
  };
}

/** The wire usage of a GPT image answer: the prompt's text tokens, input images, output images. */
function usageOf(request: ImageRequest) {
  const textTokens = countTokens(request.prompt);
  const imageTokens = request.inputImages * INPUT_IMAGE_TOKENS;
  const outputTokens = request.n * outputTokensOf(request.width, request.height, request.quality);
  const inputTokens = textTokens + imageTokens;
  return {
    wire: {
      input_tokens: inputTokens,
      input_tokens_details: { text_tokens: textTokens, image_tokens: imageTokens },
      output_tokens: outputTokens,
      total_tokens: inputTokens + outputTokens,
    },
    neutral: { inputTokens, outputTokens, cachedInputTokens: 0, reasoningTokens: 0 } satisfies Usage,
  };
}

/** Why the images cannot be answered in the requested format, or undefined. */
function formatProblem(request: ImageRequest, scripted: ScriptedImage | undefined): NeutralError | undefined {
  if (request.family !== 'gpt-image') return undefined;
  const kind = scripted?.bytes?.kind;
  if (kind === undefined && request.outputFormat !== 'png') {
    return understudyConflict(
      'mismatch',
      'fixture_mismatch',
      `Understudy draws its default picture as PNG only, and the fixture scripts no image for prompt ${JSON.stringify(request.prompt.slice(0, 80))}: script its bytes (images[].b64) to answer output_format "${request.outputFormat}".`,
    );
  }
  if (kind !== undefined && kind !== request.outputFormat) {
    return understudyConflict(
      'mismatch',
      'fixture_mismatch',
      `the scripted image for prompt ${JSON.stringify(request.prompt.slice(0, 80))} is ${kind}, but the request asked for output_format "${request.outputFormat}".`,
    );
  }
  return undefined;
}

async function decode(operation: 'generate' | 'edit', host: ImagesHost, ask: InfoAsk): Promise<ImageRequest | NeutralError> {
  const routeModel = host.modelOf?.(ask);
  try {
    if (operation === 'generate') return decodeImageGeneration(ask.body, routeModel, host.fallbackFamily);
    const contentType = ask.headers?.['content-type'];
    return await decodeImageEdit(ask.bytes ?? Buffer.alloc(0), contentType, routeModel, host.fallbackFamily);
  } catch (error) {
    if (error instanceof WireError) return error.neutral;
    throw error;
  }
}

/** Where the session serves a `url` answer's image: its own origin, under the session's prefix. */
function urlBase(ask: InfoAsk): string {
  const host = ask.headers?.host ?? (ask.headers?.[':authority'] as string | undefined) ?? '127.0.0.1';
  return `http://${host}/s/${encodeURIComponent(ask.state.sessionId)}/v1/understudy-images/`;
}

export async function answerOpenAIImages(operation: 'generate' | 'edit', host: ImagesHost, ask: InfoAsk): Promise<InfoAnswer> {
  const refuse = (error: NeutralError, request?: ImageRequest, scripted?: ScriptedImage): InfoAnswer => ({
    ...host.encodeError(error),
    ...(scripted?.delayMs !== undefined && { act: { delayMs: scripted.delayMs } }),
    journal: { error, ...(request && { request: journalRequest(request) }) },
  });
  const early = host.before?.(ask);
  if (early) return refuse(early);
  const request = await decode(operation, host, ask);
  if (isNeutralError(request)) return refuse(request);
  const missing = host.catalogue ? notInCatalogue(request.model, ask) : undefined;
  if (missing) return refuse(missing, request);
  const scripted = ask.state.scriptedImage?.(request.prompt, request.model);
  if (scripted?.error && request.stream && scripted.error.inStream) {
    // Answered 200, then the error event alone, as a stream that fails before its first image.
    return {
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
      body: '',
      events: [imageStreamError(scripted.error)],
      ...(scripted.delayMs !== undefined && { act: { delayMs: scripted.delayMs } }),
      journal: { error: scripted.error, request: journalRequest(request) },
    };
  }
  if (scripted?.error) return refuse(scripted.error, request, scripted);
  if (scripted?.unreadFile !== undefined) {
    const unread = understudyConflict(
      'mismatch',
      'fixture_mismatch',
      `the scripted image for prompt ${JSON.stringify(request.prompt.slice(0, 80))} names file ${JSON.stringify(scripted.unreadFile)}, which is read only when a fixture file is loaded (loadFixtureFile, understudy serve --fixtures); send its bytes as b64.`,
    );
    return refuse(unread, request, scripted);
  }
  const unanswerable = formatProblem(request, scripted);
  if (unanswerable) return refuse(unanswerable, request, scripted);

  const seed = `${request.model}\n${operation}\n${request.prompt}`;
  // Scripted bytes are every image of the answer, partial ones too (a partial image of another
  // kind would carry the wrong output_format).
  const picture = (index: number, partial = false) =>
    scripted?.bytes
      ? scripted.bytes.data
      : defaultPicture({ seed, index, width: request.width, height: request.height, transparent: request.transparent, partial });
  const kind = scripted?.bytes?.kind ?? 'png';
  const gpt = request.family === 'gpt-image';
  const usage = gpt ? usageOf(request) : undefined;
  const journal = { request: journalRequest(request), ...(usage && { usage: usage.neutral }) };
  const act = { ...(scripted?.delayMs !== undefined && { delayMs: scripted.delayMs }), ...(scripted?.fault && { fault: scripted.fault }) };
  const echo = gpt
    ? {
        background: request.transparent ? 'transparent' : 'opaque',
        output_format: request.outputFormat,
        size: request.size,
        quality: request.quality,
      }
    : undefined;

  if (request.stream) {
    const images: StreamedImage[] = [];
    for (let i = 0; i < request.n; i++)
      images.push({ final: picture(i), partials: Array.from({ length: request.partialImages }, () => picture(i, true)) });
    const { events, errorEvent } = imageStream(operation, images, {
      createdAt: ask.clock,
      echo: echo ?? {},
      usage: usage?.wire,
      faultError: scripted?.fault?.error,
    });
    return {
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
      body: '',
      events,
      errorEvent,
      act,
      journal,
    };
  }

  const revised = request.family === 'dall-e-3' ? (scripted?.revisedPrompt ?? request.prompt) : scripted?.revisedPrompt;
  const kept: { name: string; bytes: Buffer }[] = [];
  // The store of the session as it is now: an answer delivered after a reset keeps nothing.
  const urls = request.responseFormat === 'url' ? imageUrlsOf(ask.state) : undefined;
  const data = [];
  for (let i = 0; i < request.n; i++) {
    const bytes = picture(i);
    const item: Record<string, string> = {};
    if (urls) {
      const name = urls.name(kind === 'jpeg' ? 'jpg' : kind);
      kept.push({ name, bytes });
      item.url = urlBase(ask) + name;
    } else item.b64_json = bytes.toString('base64');
    if (revised !== undefined) item.revised_prompt = revised;
    data.push(item);
  }
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ created: ask.clock, data, ...echo, ...(usage && { usage: usage.wire }) }),
    act,
    onDelivered: kept.length
      ? () => {
          for (const { name, bytes } of kept) urls?.keep(name, { bytes, contentType: CONTENT_TYPES[kind] });
        }
      : undefined,
    journal,
  };
}
