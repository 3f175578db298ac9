// The shapes the dashboard reads from the control API (docs/control-api.md and the issue 23 data
// routes). The page is built for the browser on its own, so these are written out here rather than
// imported from the engine, whose modules are Node code.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  reasoningTokens?: number;
  cacheWriteTokens?: number;
}

export interface FailedPredicate {
  predicate: string;
  expected: string;
  actual: string;
}

export interface NearMiss {
  scenario: string;
  step: string;
  failed: FailedPredicate[];
}

/** A journal entry as the live feed sends it: everything but the decoded request and reply. */
export interface EntrySummary {
  session: string;
  seq: number;
  requestId: string;
  time: string;
  route: string;
  operation: string;
  stream: boolean;
  status: number;
  event: 'reply_returned' | 'error_returned' | 'request_aborted';
  source?: string;
  script?: string;
  step?: string;
  error?: { code: string | null; message: string };
  usage?: Usage;
  nearMisses?: NearMiss[];
  ms?: number;
  firstByteMs?: number;
  fault?: string;
  paced?: boolean;
  worker?: number;
  truncated?: boolean;
}

export type Part =
  | { type: 'text'; text: string }
  | { type: 'image'; url: string; mediaType?: string }
  | { type: 'tool_call'; id: string; name: string; argumentsText: string }
  | { type: 'tool_result'; callId: string; name?: string; content: string; isError: boolean }
  | { type: 'reasoning'; text: string };

export interface Message {
  role: string;
  parts: Part[];
}

export interface ToolDefinition {
  name: string;
  description?: string;
  parameters: unknown;
  strict?: boolean;
}

export interface ChatRequest {
  model: string;
  messages: Message[];
  tools: ToolDefinition[];
  toolChoice?: { type: string; name?: string };
  parallelToolCalls?: boolean;
  output?: { type: string; name?: string; schema?: unknown };
  stream?: boolean;
  maxOutputTokens?: number;
}

export interface WireBodies {
  request?: string;
  /** The request was larger than the journal keeps whole: `request` is its beginning. */
  requestTruncated?: boolean;
  response?: string;
  responseKept: boolean;
}

/** One entry whole: GET /_understudy/sessions/ID/journal/SEQ. */
export interface FullEntry extends EntrySummary {
  request?: ChatRequest;
  reply?: unknown;
  requestPreview?: string;
  wire?: WireBodies;
}

export interface SessionInfo {
  id: string;
  fallback: string;
  scripts: { name: string; steps: number; replies: number; complete: boolean }[];
}

export interface StepNode {
  id: string;
  index: number;
  when: JsonValue | null;
  reply: { text?: string; toolCalls?: string[]; error?: { status: number; code?: string | null }; chunks?: number };
  next: string[];
  used: number;
}

export interface ScriptGraph {
  name: string;
  exhausted: string;
  maxReplies: number | null;
  replies: number;
  complete: boolean;
  candidates: string[];
  released: string[];
  lastStep: string | null;
  steps: StepNode[];
}

export interface VerifyProblem {
  kind: string;
  message: string;
  requestId?: string;
  scenario?: string;
  step?: string;
}

export interface VerifyReport {
  ok: boolean;
  problems: VerifyProblem[];
  warnings: VerifyProblem[];
  report?: string;
}
