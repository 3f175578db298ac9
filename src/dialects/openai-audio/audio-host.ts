// What the audio routes of OpenAI and its hosts (Azure, Groq) share: the host's error shape and
// checks before the body, the request as the journal keeps it, usage, and how a scripted delay or
// fault becomes the answer's act.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest, Message, Usage } from '../../core/model.js';
import type { AudioAct } from '../../core/scripted-audio.js';
import type { EncodedBody, InfoAct, InfoAnswer, InfoAsk, WireContext } from '../dialect.js';
import type { VersionRule } from '../openai-hosts/azure-service.js';

export interface AudioHost {
  encodeError(error: NeutralError): EncodedBody;
  /** A refusal before the body is read (Azure's api-version), or undefined. */
  before?(ask: InfoAsk): NeutralError | undefined;
  /** The model when the route names it (Azure's deployment). */
  modelOf?(ask: InfoAsk): string | undefined;
  /** Whether the session's model catalogue applies (OpenAI's own routes). */
  catalogue: boolean;
}

/** An Azure version rule read from an info route's query. */
export function versionCheck(rule: VersionRule): AudioHost['before'] {
  return (ask) => rule({ query: ask.query ?? new URLSearchParams() } as WireContext);
}

const text = (role: Message['role'], value: string): Message => ({ role, parts: [{ type: 'text', text: value }] });

/** The request as the journal keeps it: what the model was given to read (speech input, or a
 * file's name and hash and the prompt) as user messages, instructions as a system message. */
export function journalRequest(model: string, user: readonly string[], system?: string): ChatRequest {
  return {
    model,
    messages: [...(system !== undefined ? [text('system', system)] : []), ...user.map((value) => text('user', value))],
    tools: [],
    toolChoice: { type: 'none' },
    parallelToolCalls: false,
    output: { type: 'text' },
    stream: false,
    streamUsage: false,
    promptCaching: 'none',
  };
}

export function audioUsage(inputTokens: number, outputTokens: number): Usage {
  return { inputTokens, outputTokens, cachedInputTokens: 0, reasoningTokens: 0 };
}

/** A refusal in the host's shape, journalled with the request when it was read. */
export function refusal(host: AudioHost, error: NeutralError, request?: ChatRequest, act?: AudioAct): InfoAnswer {
  return {
    ...host.encodeError(error),
    journal: { error, ...(request && { request }) },
    ...(act?.delayMs && { act: { delayMs: act.delayMs } }),
  };
}

/** A scripted delay and fault as the answer's act; undefined when neither is scripted. */
export function actOf(scripted: AudioAct | undefined): InfoAct | undefined {
  if (!scripted || (scripted.delayMs === undefined && !scripted.fault)) return undefined;
  return { ...(scripted.delayMs !== undefined && { delayMs: scripted.delayMs }), ...(scripted.fault && { fault: scripted.fault }) };
}

/** The in-stream error event a fault of kind `error` writes: the host's error body as SSE data. */
export function faultErrorEvent(host: AudioHost, scripted: AudioAct | undefined): string | undefined {
  const fault = scripted?.fault;
  if (fault?.kind !== 'error') return undefined;
  const error: NeutralError = {
    kind: 'scripted',
    status: fault.error?.status ?? 500,
    code: fault.error?.code ?? null,
    type: fault.error?.type ?? 'server_error',
    message: fault.error?.message ?? 'Internal error',
  };
  return `data: ${host.encodeError(error).body}\n\n`;
}

/** Seconds of audio billed as tokens at this rate (speech output, transcription input). */
export const AUDIO_TOKENS_PER_SECOND = 10;
