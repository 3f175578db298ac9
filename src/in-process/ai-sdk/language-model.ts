// A Vercel AI SDK language model (specification v3) answered by a session's scripts in this
// process: generateText, streamText, generateObject and their tool loops run against Understudy
// with no HTTP, with the same contract checks, journal and verify() as over the wire.

import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
} from '@ai-sdk/provider';
import type { StreamFault } from '../../core/model.js';
import { _answerInProcess, _engineSessionOf, UnderstudyModelError, type UnderstudySession } from '../../index.js';
import { faultFailure, stalled } from '../act-out-fault.js';
import { contentOf, finishReasonOf, streamPartsOf, usageOf } from './map-reply.js';
import { prepareRequest } from './prepare-request.js';

export interface UnderstudyModelOptions {
  /** The model id requests carry (what `model` predicates and the journal see); default `understudy`. */
  modelId?: string;
}

/** Delta parts: what a fault's `afterChunks` counts. */
const DELTAS = new Set(['text-delta', 'reasoning-delta', 'tool-input-delta']);

export class UnderstudyLanguageModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = 'understudy';
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> = { 'image/*': [/^https?:\/\//] };
  private readonly session;

  constructor(session: UnderstudySession, options: UnderstudyModelOptions = {}) {
    const engine = _engineSessionOf(session);
    if (!engine) {
      throw new Error(
        `session "${session.id}" is not one this process's llm-understudy made: it is reached over HTTP (connectUnderstudy), or made by another copy of the package. The in-process model needs a session of createUnderstudy() or startUnderstudy(); over HTTP, point the provider's own AI SDK package at session.url()`,
      );
    }
    this.session = engine;
    this.modelId = options.modelId ?? 'understudy';
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const request = prepareRequest(this.modelId, options, false);
    const answer = await _answerInProcess(this.session, request, {
      route: 'ai-sdk doGenerate',
      operation: 'ai-sdk.generate',
      signal: options.abortSignal,
    });
    if (answer.fault) await actOutFault(answer.fault, options.abortSignal);
    const reply = answer.reply;
    return {
      content: contentOf(reply),
      finishReason: finishReasonOf(reply),
      usage: usageOf(reply.usage),
      request: { body: request },
      response: { id: answer.responseId, timestamp: new Date(answer.created * 1000), modelId: request.model },
      warnings: [],
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const request = prepareRequest(this.modelId, options, true);
    let parts: LanguageModelV3StreamPart[];
    let fault: StreamFault | undefined;
    const head = (id: string, created: number): LanguageModelV3StreamPart[] => [
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id, timestamp: new Date(created * 1000), modelId: request.model },
    ];
    try {
      const answer = await _answerInProcess(this.session, request, {
        route: 'ai-sdk doStream',
        operation: 'ai-sdk.stream',
        signal: options.abortSignal,
      });
      const reply = answer.reply;
      parts = [
        ...head(answer.responseId, answer.created),
        ...streamPartsOf(reply),
        { type: 'finish', usage: usageOf(reply.usage), finishReason: finishReasonOf(reply) },
      ];
      fault = answer.fault;
    } catch (error) {
      // A scripted error meant for inside the stream arrives as the stream's error part, as a
      // provider's in-stream error event does; every other refusal rejects the call.
      if (!(error instanceof UnderstudyModelError && error.inStream)) throw error;
      parts = [
        { type: 'stream-start', warnings: [] },
        { type: 'error', error },
      ];
    }
    return { stream: partsStream(parts, fault, options.abortSignal), request: { body: request } };
  }
}

/** The stream of parts, cut by the step's fault: `error` ends with an error part after
 * `afterChunks` deltas, `truncate` ends without `finish`, `stall` waits for the abort signal, and
 * the wire's own cuts (`reset`, `close`, `malformed`) error the stream with an
 * UnderstudyFaultError. */
function partsStream(parts: LanguageModelV3StreamPart[], fault: StreamFault | undefined, signal: AbortSignal | undefined) {
  return new ReadableStream<LanguageModelV3StreamPart>({
    async start(controller) {
      const cutAfter = fault ? (fault.afterChunks ?? 1) : Infinity;
      let deltas = 0;
      for (const part of parts) {
        if (deltas >= cutAfter && fault) {
          if (fault.kind === 'error') {
            controller.enqueue({ type: 'error', error: faultFailure({ ...fault, kind: 'error' }) });
            controller.close();
          } else if (fault.kind === 'truncate') controller.close();
          else if (fault.kind === 'stall') controller.error(await stalled(signal).catch((reason: unknown) => reason));
          else controller.error(faultFailure({ ...fault, kind: fault.kind }));
          return;
        }
        controller.enqueue(part);
        if (DELTAS.has(part.type)) deltas++;
      }
      controller.close();
    },
  });
}

/** A fault on a whole (not streamed) answer: the answer never arrives complete. */
function actOutFault(fault: StreamFault, signal: AbortSignal | undefined): Promise<never> {
  if (fault.kind === 'stall') return stalled(signal);
  return Promise.reject(faultFailure({ ...fault, kind: fault.kind }));
}
