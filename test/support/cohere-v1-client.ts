// The cohere-ai 7 that @langchain/cohere bundles (its own dependency, not the project's cohere-ai
// 8): ChatCohere is given a CohereClient of that version pointed at Understudy.

import { createRequire } from 'node:module';
import type { ChatCohere } from '@langchain/cohere';

export type BundledCohereClient = ChatCohere['client'];

interface BundledCohere {
  CohereClient: new (options: {
    token: string;
    environment: string;
    maxRetries?: number;
    timeoutInSeconds?: number;
    fetch?: typeof fetch;
  }) => BundledCohereClient;
  CohereError: new (...args: never[]) => Error & { statusCode?: number; body?: unknown };
  CohereTimeoutError: new (...args: never[]) => Error;
}

const bundled = createRequire(import.meta.resolve('@langchain/cohere'))('cohere-ai') as BundledCohere;

export const { CohereClient, CohereError, CohereTimeoutError } = bundled;

/** The bundled SDK's version, read from its package.json. */
export const BUNDLED_COHERE_VERSION = (
  createRequire(import.meta.resolve('@langchain/cohere'))('cohere-ai/package.json') as { version: string }
).version;
