// The answer to a speech request on OpenAI's routes and Azure's: the scripted audio, or silence in
// the requested format as long as the input takes to read; as one body, or (`stream_format: sse`)
// as `speech.audio.delta` events carrying base64 pieces of it and a closing `speech.audio.done`
// with usage.

import { isNeutralError } from '../../core/errors.js';
import { countTokens } from '../../core/tokens.js';
import type { InfoAnswer, InfoAsk } from '../dialect.js';
import { readingSeconds, SPEECH_FORMATS } from '../audio-kit/speech-audio.js';
import { notInCatalogue } from '../openai-embeddings/answer.js';
import { refusalOr } from '../wire-kit/wire-error.js';
import { actOf, AUDIO_TOKENS_PER_SECOND, audioUsage, faultErrorEvent, journalRequest, refusal, type AudioHost } from './audio-host.js';
import { decodeSpeechRequest, type SpeechRequest } from './speech-request.js';

/** Bytes of audio per `speech.audio.delta` event. */
const DELTA_BYTES = 16 * 1024;

/** The body with the route's model (a deployment) as its model when it names none. */
export function withRouteModel(body: unknown, model: string | undefined): unknown {
  if (model === undefined || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return (body as Record<string, unknown>).model == null ? { ...body, model } : body;
}

function speechEvents(bytes: Uint8Array, usage: { input_tokens: number; output_tokens: number }): string[] {
  const events: string[] = [];
  for (let at = 0; at < bytes.length; at += DELTA_BYTES) {
    const audio = Buffer.from(bytes.subarray(at, at + DELTA_BYTES)).toString('base64');
    events.push(`data: ${JSON.stringify({ type: 'speech.audio.delta', audio })}\n\n`);
  }
  const done = { type: 'speech.audio.done', usage: { ...usage, total_tokens: usage.input_tokens + usage.output_tokens } };
  events.push(`data: ${JSON.stringify(done)}\n\n`);
  return events;
}

export function answerSpeech(host: AudioHost, ask: InfoAsk, decode: (body: unknown) => SpeechRequest = decodeSpeechRequest): InfoAnswer {
  const early = host.before?.(ask);
  if (early) return refusal(host, early);
  const routeModel = host.modelOf?.(ask);
  const decoded = refusalOr(() => decode(withRouteModel(ask.body, routeModel)));
  if (isNeutralError(decoded)) return refusal(host, decoded);
  const request: SpeechRequest = routeModel !== undefined ? { ...decoded, model: routeModel } : decoded;
  const journalled = journalRequest(request.model, [request.input], request.instructions);
  const missing = host.catalogue ? notInCatalogue(request.model, ask) : undefined;
  if (missing) return refusal(host, missing, journalled);
  const scripted = ask.state.scriptedSpeech?.({ input: request.input, voice: request.voice, model: request.model, format: request.format });
  if (scripted?.error) return refusal(host, scripted.error, journalled, scripted);
  const seconds = readingSeconds(request.input, request.speed);
  const spec = SPEECH_FORMATS[request.format];
  const bytes = scripted?.audio ?? spec.silence(seconds, request.rate);
  const inputTokens = countTokens(request.input) + (request.instructions ? countTokens(request.instructions) : 0);
  const outputTokens = Math.ceil(seconds * AUDIO_TOKENS_PER_SECOND);
  const journal = { request: journalled, usage: audioUsage(inputTokens, outputTokens) };
  const act = actOf(scripted);
  if (request.stream === 'sse') {
    return {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
      body: '',
      events: speechEvents(bytes, { input_tokens: inputTokens, output_tokens: outputTokens }),
      ...(act && { act }),
      errorEvent: faultErrorEvent(host, scripted),
      journal,
    };
  }
  return { status: 200, headers: { 'content-type': request.contentType ?? spec.contentType }, body: bytes, ...(act && { act }), journal };
}
