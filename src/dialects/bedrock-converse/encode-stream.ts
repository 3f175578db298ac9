// ConverseStream in the AWS event-stream framing (src/dialects/bedrock/event-stream.ts): messageStart,
// then per content block its deltas and a contentBlockStop (reasoning, text, toolUse in that order;
// only a toolUse block has a contentBlockStart, as on the service), messageStop with the stop reason,
// and metadata with usage and metrics — the event the AWS client's stream ends on. One text delta
// per chunk of the reply. A failing stream ends with an exception frame the client throws.

import type { NeutralError } from '../../core/errors.js';
import type { ChatRequest, ResolvedReply } from '../../core/model.js';
import { fixedPieces, wordPieces } from '../../core/stream-pieces.js';
import type { DialectEncodeContext, StreamEncoding, StreamEvents } from '../dialect.js';
import { bedrockExceptionFrame } from '../bedrock/errors.js';
import { eventFrame } from '../bedrock/event-stream.js';
import { converseMetricsJson, converseUsageJson } from './converse-usage.js';
import { reasoningSignature, toolInputJson } from './encode-response.js';
import { mapStopReason } from './map-stop-reason.js';

export const EVENT_STREAM = 'application/vnd.amazon.eventstream';
const ARGUMENT_FRAGMENT = 24;
const MESSAGE_START = eventFrame('messageStart', '{"role":"assistant"}');

function delta(index: number, delta: string): string {
  return eventFrame('contentBlockDelta', `{"contentBlockIndex":${index},"delta":${delta}}`);
}

function stop(index: number): string {
  return eventFrame('contentBlockStop', `{"contentBlockIndex":${index}}`);
}

// The frames between messageStart and metadata depend only on the reply's static parts.
const blockCache = new WeakMap<object, string[]>();

function encodeBlocks(reply: ResolvedReply): string[] {
  const frames: string[] = [];
  let index = 0;
  if (reply.reasoning !== null) {
    for (const piece of wordPieces(reply.reasoning)) frames.push(delta(index, `{"reasoningContent":{"text":${JSON.stringify(piece)}}}`));
    frames.push(delta(index, `{"reasoningContent":{"signature":${JSON.stringify(reasoningSignature(reply.reasoning))}}}`));
    frames.push(stop(index++));
  }
  if (reply.content) {
    for (const piece of reply.chunks) if (piece.length > 0) frames.push(delta(index, `{"text":${JSON.stringify(piece)}}`));
    frames.push(stop(index++));
  }
  for (const call of reply.toolCalls) {
    frames.push(
      eventFrame(
        'contentBlockStart',
        `{"contentBlockIndex":${index},"start":{"toolUse":{"toolUseId":${JSON.stringify(call.id)},"name":${JSON.stringify(call.name)}}}}`,
      ),
    );
    const input = toolInputJson(call);
    for (const fragment of reply.wholeToolCalls ? [input] : fixedPieces(input, ARGUMENT_FRAGMENT)) {
      frames.push(delta(index, `{"toolUse":{"input":${JSON.stringify(fragment)}}}`));
    }
    frames.push(stop(index++));
  }
  frames.push(eventFrame('messageStop', `{"stopReason":${JSON.stringify(mapStopReason(reply.finishReason))}}`));
  return frames;
}

export function encodeConverseStream(reply: ResolvedReply, _request: ChatRequest, ctx: DialectEncodeContext): StreamEvents {
  let blocks = reply.shape ? blockCache.get(reply.shape) : undefined;
  if (blocks === undefined) {
    blocks = encodeBlocks(reply);
    if (reply.shape) blockCache.set(reply.shape, blocks);
  }
  const frames = blocks;
  const n = frames.length;
  const total = n + 2;
  const metadata = () =>
    eventFrame('metadata', `{"usage":${converseUsageJson(reply.usage)},"metrics":${converseMetricsJson(ctx.pacing, total)}}`);
  return {
    contentType: EVENT_STREAM,
    events: { length: total, at: (i) => (i === 0 ? MESSAGE_START : i <= n ? frames[i - 1] : metadata()) },
  };
}

/** The exception frame alone: what a stream interrupted by a fault ends with. */
export function encodeConverseStreamErrorEvent(error: NeutralError): string {
  return bedrockExceptionFrame(error);
}

/** A stream that fails after it started: messageStart, then the exception frame the client throws. */
export function encodeConverseStreamFailure(error: NeutralError): StreamEncoding {
  return { contentType: EVENT_STREAM, events: [MESSAGE_START, bedrockExceptionFrame(error)] };
}
