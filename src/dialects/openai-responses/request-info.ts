// What a Responses request says beyond the neutral ChatRequest: the fields the response object
// echoes, and what the store needs. Kept beside the decoded request (same object identity flows
// from decode to encode and `delivered`), so the neutral model stays free of wire fields.

import type { ChatRequest, Message } from '../../core/model.js';

/** Request fields the response object repeats, already in wire form. */
export interface ResponseEcho {
  instructions: string | null;
  max_output_tokens: number | null;
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  reasoning: { effort: string | null; summary: string | null };
  store: boolean;
  temperature: number;
  text: Record<string, unknown>;
  tool_choice: unknown;
  tools: unknown[];
  top_p: number;
  truncation: string;
  user: string | null;
  metadata: Record<string, unknown>;
  service_tier: string;
}

export interface ResponsesRequestInfo {
  echo: ResponseEcho;
  store: boolean;
  previousResponseId: string | null;
  credential: string;
  /** The messages this request added: its input items, without instructions or stored history. */
  input: Message[];
}

const infos = new WeakMap<ChatRequest, ResponsesRequestInfo>();

export function attachInfo(request: ChatRequest, info: ResponsesRequestInfo): void {
  infos.set(request, info);
}

export function infoOf(request: ChatRequest): ResponsesRequestInfo {
  const info = infos.get(request);
  if (!info) throw new Error('OpenAI Responses: request was not decoded by this dialect');
  return info;
}
