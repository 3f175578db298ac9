// LangChain's createAgent (langchain 1.x), typed as narrowly as these tests use it: its own types
// are generic over the agent's state, tools and middleware, which the tests never need.

import type { BaseMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { createAgent as langchainCreateAgent } from 'langchain';

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

export const createAgent = langchainCreateAgent as unknown as CreateAgent;
