// The answer to a transcription or translation on OpenAI's routes and its hosts': the transcript
// the fixture scripts for the uploaded file (by its SHA-256 or name), or the default one, in the
// requested format — json, text, srt, vtt or verbose_json — or, for a streaming gpt-4o model,
// `transcript.text.delta` events and a closing `transcript.text.done` with usage.

import { isNeutralError } from '../../core/errors.js';
import type { ScriptedTranscript, TranscriptSegment } from '../../core/scripted-audio.js';
import { countTokens } from '../../core/tokens.js';
import type { InfoAnswer, InfoAsk } from '../dialect.js';
import { derivedSegments, srtOf, transcriptDuration, vttOf, wordsOf } from '../audio-kit/transcript.js';
import { notInCatalogue } from '../openai-embeddings/answer.js';
import { WireError } from '../wire-kit/wire-error.js';
import { actOf, AUDIO_TOKENS_PER_SECOND, audioUsage, faultErrorEvent, journalRequest, refusal, type AudioHost } from './audio-host.js';
import { decodeTranscriptionForm, isTokenModel, type TranscriptionRequest, type TranscriptionRules } from './transcription-request.js';

/** How a host's answers differ from OpenAI's. */
export interface TranscriptStyle {
  /** Whether json and verbose_json carry `usage` (OpenAI's do; Groq's do not). */
  usage: boolean;
  /** Members the host adds to json and verbose_json answers (Groq's `x_groq`). */
  extra?(ask: InfoAsk): Record<string, unknown>;
}

export const OPENAI_STYLE: TranscriptStyle = { usage: true };

/** The transcript of a file no fixture entry matches. */
export function defaultTranscript(fileName: string): string {
  return `Understudy transcript of ${fileName}.`;
}

interface Transcript {
  text: string;
  segments: readonly TranscriptSegment[];
  duration: number;
  language: string;
}

function transcriptOf(scripted: ScriptedTranscript | undefined, request: TranscriptionRequest): Transcript {
  const text = scripted?.text ?? scripted?.segments?.map((s) => s.text.trim()).join(' ') ?? defaultTranscript(request.file.name);
  const duration = transcriptDuration(text, scripted?.segments, scripted?.duration);
  return {
    text,
    duration,
    segments: scripted?.segments ?? derivedSegments(text, duration),
    language: request.task === 'translate' ? 'english' : (scripted?.language ?? 'english'),
  };
}

/** Token usage as the gpt-4o transcription models report it: the prompt's text tokens and the
 * audio's tokens in, the transcript's tokens out. */
function tokenUsage(request: TranscriptionRequest, transcript: Transcript) {
  const textTokens = request.prompt ? countTokens(request.prompt) : 0;
  const audioTokens = Math.ceil(transcript.duration * AUDIO_TOKENS_PER_SECOND);
  const output = countTokens(transcript.text);
  return {
    type: 'tokens',
    input_tokens: textTokens + audioTokens,
    input_token_details: { text_tokens: textTokens, audio_tokens: audioTokens },
    output_tokens: output,
    total_tokens: textTokens + audioTokens + output,
  };
}

const durationUsage = (transcript: Transcript) => ({ type: 'duration', seconds: Math.ceil(transcript.duration) });

function segmentsJson(request: TranscriptionRequest, segments: readonly TranscriptSegment[]) {
  return segments.map((s, id) => ({
    id,
    seek: Math.round(s.start * 100),
    start: s.start,
    end: s.end,
    text: ` ${s.text.trim()}`,
    tokens: [],
    temperature: request.temperature,
    avg_logprob: 0,
    compression_ratio: 1,
    no_speech_prob: 0,
  }));
}

function jsonBody(request: TranscriptionRequest, transcript: Transcript, style: TranscriptStyle, extra: Record<string, unknown>): unknown {
  const token = isTokenModel(request.model);
  const usage =
    style.usage && request.task === 'transcribe' ? { usage: token ? tokenUsage(request, transcript) : durationUsage(transcript) } : {};
  if (request.format === 'json') return { text: transcript.text, ...usage, ...extra };
  const granular = new Set(request.granularities);
  return {
    task: request.task,
    language: transcript.language,
    duration: transcript.duration,
    text: transcript.text,
    ...(granular.has('word') && { words: wordsOf(transcript.segments) }),
    ...(granular.has('segment') && { segments: segmentsJson(request, transcript.segments) }),
    ...(style.usage && request.task === 'transcribe' && { usage: durationUsage(transcript) }),
    ...extra,
  };
}

function bodyOf(
  request: TranscriptionRequest,
  transcript: Transcript,
  style: TranscriptStyle,
  ask: InfoAsk,
): { type: string; body: string } {
  const plain = 'text/plain; charset=utf-8';
  switch (request.format) {
    case 'text':
      return { type: plain, body: `${transcript.text}\n` };
    case 'srt':
      return { type: plain, body: srtOf(transcript.segments) };
    case 'vtt':
      return { type: plain, body: vttOf(transcript.segments) };
    default:
      return { type: 'application/json', body: JSON.stringify(jsonBody(request, transcript, style, style.extra?.(ask) ?? {})) };
  }
}

/** The transcript word by word (each delta a word and the space before it), then the whole. */
function transcriptEvents(request: TranscriptionRequest, transcript: Transcript): string[] {
  const pieces = transcript.text.match(/\s*\S+/g) ?? [];
  const events = pieces.map((delta) => `data: ${JSON.stringify({ type: 'transcript.text.delta', delta })}\n\n`);
  const done = { type: 'transcript.text.done', text: transcript.text, usage: tokenUsage(request, transcript) };
  events.push(`data: ${JSON.stringify(done)}\n\n`);
  return events;
}

async function decoded(ask: InfoAsk, task: TranscriptionRequest['task'], rules: TranscriptionRules, routeModel: string | undefined) {
  const type = ask.headers?.['content-type'];
  try {
    return await decodeTranscriptionForm(ask.bytes, type, task, rules, routeModel);
  } catch (error) {
    if (error instanceof WireError) return error.neutral;
    throw error;
  }
}

export async function answerTranscription(
  host: AudioHost,
  ask: InfoAsk,
  task: TranscriptionRequest['task'],
  rules: TranscriptionRules,
  style: TranscriptStyle = OPENAI_STYLE,
): Promise<InfoAnswer> {
  const early = host.before?.(ask);
  if (early) return refusal(host, early);
  const request = await decoded(ask, task, rules, host.modelOf?.(ask));
  if (isNeutralError(request)) return refusal(host, request);
  const { file } = request;
  const user = [`${file.name} (sha256 ${file.sha256})`, ...(request.prompt !== undefined ? [request.prompt] : [])];
  const journalled = journalRequest(request.model, user);
  const missing = host.catalogue ? notInCatalogue(request.model, ask) : undefined;
  if (missing) return refusal(host, missing, journalled);
  const scripted = ask.state.scriptedTranscript?.({ sha256: file.sha256, fileName: file.name, model: request.model });
  if (scripted?.error) return refusal(host, scripted.error, journalled, scripted);
  const transcript = transcriptOf(scripted, request);
  const tokens = isTokenModel(request.model) ? tokenUsage(request, transcript) : undefined;
  const journal = {
    request: journalled,
    usage: audioUsage(tokens?.input_tokens ?? 0, tokens?.output_tokens ?? countTokens(transcript.text)),
  };
  const act = actOf(scripted);
  if (request.stream) {
    return {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
      body: '',
      events: transcriptEvents(request, transcript),
      errorEvent: faultErrorEvent(host, scripted),
      ...(act && { act }),
      journal,
    };
  }
  const { type, body } = bodyOf(request, transcript, style, ask);
  return { status: 200, headers: { 'content-type': type }, body, ...(act && { act }), journal };
}
