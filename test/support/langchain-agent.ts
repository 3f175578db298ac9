// LangChain's createAgent (langchain 1.x), typed here by hand. The `langchain` root's declarations
// pull in @langchain/core/testing, which augments vitest's `Assertion` with type parameters of its
// own; in one program with src/runners/vitest.ts (augmenting the same interface as vitest declares
// it) that is a type error in our file. Loading the module through a specifier TypeScript does not
// follow keeps its declarations out of the program; at run time it is the same import.

import type { BaseMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';

type AgentInput = { messages: { role: 'user'; content: string }[] };

export interface ReactAgent {
  invoke(input: AgentInput, config?: { signal?: AbortSignal }): Promise<{ messages: BaseMessage[] }>;
  /** With `streamMode: ['messages', 'values']`: `['messages', [chunk, metadata]]` as the model streams,
   * `['values', state]` after each step. */
  stream(
    input: AgentInput,
    config: { signal?: AbortSignal; streamMode: ['messages', 'values'] },
  ): Promise<AsyncIterable<['messages', [BaseMessage, unknown]] | ['values', { messages: BaseMessage[] }]>>;
}

export type CreateAgent = (params: { model: unknown; tools: StructuredToolInterface[] }) => ReactAgent;

const LANGCHAIN: string = 'langchain';

export const { createAgent } = (await import(LANGCHAIN)) as { createAgent: CreateAgent };
