// Method + path to operation. Provider paths may sit under a session prefix `/s/{session}`.

import { isNeutralError } from '../core/errors.js';
import type { ChatRequest } from '../core/model.js';
import type { ChatDialect } from '../dialects/dialect.js';
import { openaiChat } from '../dialects/openai-chat/index.js';

export interface Operation {
  id: string;
  dialect: ChatDialect;
  /** Decodes a journalled body again when the journal is read. */
  decodeForJournal: (text: string) => ChatRequest | undefined;
}

function operation(id: string, dialect: ChatDialect): Operation {
  return {
    id,
    dialect,
    decodeForJournal: (text) => {
      const decoded = dialect.decode(JSON.parse(text));
      return isNeutralError(decoded) ? undefined : decoded;
    },
  };
}

const CHAT = operation('openai.chat.completions', openaiChat);
const POST_ROUTES = new Map<string, Operation>([
  ['/v1/chat/completions', CHAT],
  ['/openai/v1/chat/completions', CHAT],
]);

export interface RouteMatch {
  operation: Operation;
  sessionId?: string;
}

export type RouteResult = RouteMatch | { notFound: true; dialect: ChatDialect; allow?: string; sessionId?: string };

const SESSION_PREFIX = /^\/s\/([^/]+)(\/.*)$/;

export function matchRoute(method: string, rawPath: string): RouteResult {
  let path = rawPath;
  let sessionId: string | undefined;
  const prefixed = SESSION_PREFIX.exec(path);
  if (prefixed) {
    sessionId = decodeURIComponent(prefixed[1]);
    path = prefixed[2];
  }
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const operation = POST_ROUTES.get(path);
  if (operation) {
    if (method === 'POST') return { operation, sessionId };
    return { notFound: true, dialect: operation.dialect, allow: 'POST', sessionId };
  }
  return { notFound: true, dialect: openaiChat, sessionId };
}

export function providerRoutes(): string[] {
  return [...POST_ROUTES.keys()].map((p) => `POST ${p}`);
}
