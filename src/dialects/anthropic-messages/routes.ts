import type { DialectRegistration } from '../dialect.js';

// Filled in by the Anthropic Messages dialect (issue 4).
export const anthropicMessagesRegistration: DialectRegistration = { routes: [], providerPaths: {} };
