// Azure's content filter results on Chat Completions answers: `prompt_filter_results` for the
// prompt and `content_filter_results` on each choice, every category passed — except where a
// script filters: a reply whose finish reason is `content_filter` reports its completion filtered,
// and a content-filter error (injected chaos, or a scripted 400 `content_filter`) is Azure's
// `ResponsibleAIPolicyViolation` body. A script cannot name the category, so both report `hate`
// at severity `high`.
//
// In a session whose stream flavour is `azure`, streams also carry what Azure's streams carry
// around OpenAI's chunks: first a metadata chunk with empty `choices` and the prompt's filter
// results, and before the finish chunk a content-filter chunk whose choice has no `delta` (what
// Azure's asynchronous filter sends), so that apps can test that they tolerate both.

import type { ChatRequest, ResolvedReply } from '../../core/model.js';
import type { WireContext } from '../dialect.js';
import type { EventPlace, HostOperation, JsonObject } from './host.js';

const SAFE = { filtered: false, severity: 'safe' };
const NOT_DETECTED = { filtered: false, detected: false };

function promptFilterResults(): JsonObject[] {
  return [
    { prompt_index: 0, content_filter_results: { hate: SAFE, jailbreak: NOT_DETECTED, self_harm: SAFE, sexual: SAFE, violence: SAFE } },
  ];
}

/** The category a filtered prompt or completion reports. */
const FILTERED = { hate: { filtered: true, severity: 'high' } };

function completionFilterResults(filtered = false): JsonObject {
  return {
    hate: SAFE,
    protected_material_code: NOT_DETECTED,
    protected_material_text: NOT_DETECTED,
    self_harm: SAFE,
    sexual: SAFE,
    violence: SAFE,
    ...(filtered && FILTERED),
  };
}

/** Adds Azure's filter results to a Chat Completions answer, in place. */
export function addFilterResults(answer: JsonObject): void {
  answer.prompt_filter_results = promptFilterResults();
  for (const choice of answer.choices as JsonObject[]) {
    choice.content_filter_results = completionFilterResults(choice.finish_reason === 'content_filter');
  }
}

/** Azure's 400 for a prompt its filter blocked: OpenAI's members, and the filter's verdict. */
export function contentFilterErrorBody(message: string): JsonObject {
  const verdict = { ...(promptFilterResults()[0]?.content_filter_results as JsonObject), ...FILTERED };
  return {
    error: {
      message,
      type: null,
      param: 'prompt',
      code: 'content_filter',
      status: 400,
      innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: verdict },
    },
  };
}

/** Requests decoded while their session's streams were in Azure's flavour. The mark rides on the
 * decoded request, so an answer made from a template of an earlier request (keyed by that request)
 * always has the flavour it was decoded under. */
const azureFlavoured = new WeakSet<ChatRequest>();

/** Marks the request when its session's streams are in Azure's flavour (a `finish` rule). */
export function markStreamFlavour(request: ChatRequest, wire: WireContext): ChatRequest {
  if (request.stream && wire.state.streamFlavour?.() === 'azure') azureFlavoured.add(request);
  return request;
}

/** Azure's chunks carry no id, time or model of their own. */
function bareChunk(choices: JsonObject[]): JsonObject {
  return { id: '', object: '', created: 0, model: '', choices };
}

function leadingEvents(): JsonObject[] {
  return [{ ...bareChunk([]), prompt_filter_results: promptFilterResults() }];
}

function contentFilterChunk(reply: ResolvedReply): JsonObject {
  const end = reply.content === null ? 0 : reply.content.length;
  return bareChunk([
    {
      index: 0,
      finish_reason: null,
      content_filter_results: completionFilterResults(reply.finishReason === 'content_filter'),
      content_filter_offsets: { check_offset: 0, start_offset: 0, end_offset: end },
    },
  ]);
}

function event(data: JsonObject, _place: EventPlace, reply: ResolvedReply): readonly JsonObject[] | undefined {
  const choice = (data.choices as JsonObject[] | undefined)?.[0];
  return choice && choice.finish_reason !== null ? [contentFilterChunk(reply), data] : undefined;
}

/** The rules every Azure Chat Completions route shares: filter results on answers, and the
 * session's stream flavour. */
export const azureChatAnswers: Pick<HostOperation, 'answer' | 'rewritesStream' | 'leadingEvents' | 'touches' | 'event'> = {
  answer: addFilterResults,
  rewritesStream: (request) => azureFlavoured.has(request),
  leadingEvents,
  // Only the finish chunk has a finish reason that is a string (inside content, quotes are escaped).
  touches: (framed) => framed.includes('"finish_reason":"'),
  event,
};
