// Method + path to operation, from the routes every dialect registers. Exact paths are a map
// lookup; paths with `{param}` segments are tried in registration order. Provider paths may sit
// under a session prefix `/s/{session}`.

import type { ChatDialect, InfoRouteSpec, RouteSpec } from '../dialects/dialect.js';
import { openaiChat } from '../dialects/openai-chat/index.js';
import { DIALECTS } from '../dialects/registry.js';

/** Where the control API lives (docs/control-api.md). */
export const CONTROL_PREFIX = '/_understudy';

/** Whether a path is the control API's. */
export function isControlPath(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
}

export interface Operation {
  id: string;
  dialect: ChatDialect;
}

interface PatternRoute {
  regex: RegExp;
  names: string[];
  spec: RouteSpec;
  operation: Operation;
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const exact = new Map<string, Map<string, Operation>>();
const patterns: PatternRoute[] = [];
const operations = new Map<string, Operation>();

function operationFor(spec: RouteSpec): Operation {
  let op = operations.get(spec.operation);
  if (!op) operations.set(spec.operation, (op = { id: spec.operation, dialect: spec.dialect }));
  return op;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

for (const registration of DIALECTS) {
  for (const spec of registration.routes) {
    const operation = operationFor(spec);
    if (!spec.path.includes('{')) {
      let methods = exact.get(spec.path);
      if (!methods) exact.set(spec.path, (methods = new Map()));
      methods.set(spec.method, operation);
      continue;
    }
    patterns.push({ ...compiled(spec.path), spec, operation });
  }
}

/** The first segment of a path (`model` of `/model/x/converse`). */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end < 0 ? path.slice(1) : path.slice(1, end);
}

/** The patterns a path may match, by its first segment: a pattern whose first segment is fixed can
 * match only paths that start with it, so a request tries a handful of them, not every dialect's.
 * Patterns whose first segment is a parameter are in every list, each list in registration order. */
const patternsByFirst = new Map<string, PatternRoute[]>();
const openFirst = patterns.filter((route) => firstSegment(route.spec.path).includes('{'));
for (const route of patterns) {
  const first = firstSegment(route.spec.path);
  if (first.includes('{') || patternsByFirst.has(first)) continue;
  patternsByFirst.set(
    first,
    patterns.filter((other) => other === route || firstSegment(other.spec.path) === first || openFirst.includes(other)),
  );
}

/** A path pattern's regular expression and the names of its `{param}` segments, in order. */
function compiled(path: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path
    .split(/(\{[A-Za-z]+\})/)
    .map((piece) => {
      const m = /^\{([A-Za-z]+)\}$/.exec(piece);
      if (!m) return escapeRegex(piece);
      names.push(m[1]);
      return '([^/]+?)';
    })
    .join('');
  return { regex: new RegExp(`^${source}$`), names };
}

/** Info routes by path, then method (DialectRegistration.infoRoutes); those with `{param}`
 * segments are tried in registration order. */
const infoRoutes = new Map<string, Map<string, InfoRouteSpec>>();
const infoPatterns: { regex: RegExp; names: string[]; spec: InfoRouteSpec }[] = [];
for (const registration of DIALECTS) {
  for (const spec of registration.infoRoutes ?? []) {
    if (spec.path.includes('{')) {
      infoPatterns.push({ ...compiled(spec.path), spec });
      continue;
    }
    let methods = infoRoutes.get(spec.path);
    if (!methods) infoRoutes.set(spec.path, (methods = new Map()));
    methods.set(spec.method, spec);
  }
}

export const PROVIDER_PATHS: Record<string, string> = Object.assign({}, ...DIALECTS.map((d) => d.providerPaths));

export interface RouteMatch {
  operation: Operation;
  params: Record<string, string>;
  sessionId?: string;
}

export type RouteResult =
  | RouteMatch
  /** No chat route; `info` when an info route answers the path and method instead. */
  | { notFound: true; dialect: ChatDialect; allow?: string; sessionId?: string; info?: InfoRouteSpec; params?: Record<string, string> }
  /** The path could not be read: a segment is not valid percent-encoding. */
  | { badPath: string; dialect: ChatDialect };

const SESSION_PREFIX = /^\/s\/([^/]+)(\/.*)$/;

/** The last path a pattern route answered (with its frozen params): requests repeat their path
 * (a Bedrock model's), so the next one skips the patterns and the percent-decoding. */
let lastPatternMatch: { method: string; path: string; operation: Operation; params: Record<string, string> } | undefined;

export function matchRoute(method: string, rawPath: string): RouteResult {
  let path = rawPath;
  let sessionId: string | undefined;
  if (path.startsWith('/s/')) {
    const prefixed = SESSION_PREFIX.exec(path);
    if (prefixed) {
      path = prefixed[2];
      sessionId = decodedSegment(prefixed[1]);
      // The rest of the path still names a provider when only the session segment is unreadable.
      if (sessionId === undefined) return badPath(prefixed[1], dialectOf(matchRoute(method, path)));
    }
  }
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const methods = exact.get(path);
  if (methods) {
    const operation = methods.get(method);
    if (operation) return { operation, params: NO_PARAMS, sessionId };
    const first = methods.values().next().value as Operation;
    return { notFound: true, dialect: first.dialect, allow: [...methods.keys()].join(', '), sessionId };
  }
  const repeated = lastPatternMatch;
  if (repeated && repeated.path === path && repeated.method === method) {
    return { operation: repeated.operation, params: repeated.params, sessionId };
  }
  let wrongMethod: PatternRoute | undefined;
  for (const route of patternsByFirst.get(firstSegment(path)) ?? openFirst) {
    const m = route.regex.exec(path);
    if (!m) continue;
    if (route.spec.method !== method) {
      wrongMethod ??= route;
      continue;
    }
    const params: Record<string, string> = {};
    for (let i = 0; i < route.names.length; i++) {
      const value = decodedSegment(m[i + 1]);
      if (value === undefined) return badPath(m[i + 1], route.spec.dialect);
      params[route.names[i]] = value;
    }
    Object.freeze(params);
    const diverted = route.spec.divert?.(params);
    if (diverted) return { notFound: true, dialect: diverted.dialect, sessionId, info: diverted, params };
    lastPatternMatch = { method, path, operation: route.operation, params };
    return { operation: route.operation, params, sessionId };
  }
  if (wrongMethod) return { notFound: true, dialect: wrongMethod.spec.dialect, allow: wrongMethod.spec.method, sessionId };
  const infos = infoRoutes.get(path);
  if (infos) {
    const info = infos.get(method);
    if (info) return { notFound: true, dialect: info.dialect, sessionId, info };
    return {
      notFound: true,
      dialect: (infos.values().next().value as InfoRouteSpec).dialect,
      allow: [...infos.keys()].join(', '),
      sessionId,
    };
  }
  return infoPattern(method, path, sessionId) ?? { notFound: true, dialect: dialectForUnknownPath(path), sessionId };
}

/** An info route with `{param}` segments that answers the path and method; a pattern that matches
 * the path with another method answers 405 only when no later one takes the method (Gemini's
 * `GET models/{model}` also matches `POST models/{model}:batchEmbedContents`). */
function infoPattern(method: string, path: string, sessionId: string | undefined): RouteResult | undefined {
  let wrongMethod: InfoRouteSpec | undefined;
  for (const route of infoPatterns) {
    const m = route.regex.exec(path);
    if (!m) continue;
    if (route.spec.method !== method) {
      wrongMethod ??= route.spec;
      continue;
    }
    const params: Record<string, string> = {};
    for (let i = 0; i < route.names.length; i++) {
      const value = decodedSegment(m[i + 1]);
      if (value === undefined) return badPath(m[i + 1], route.spec.dialect);
      params[route.names[i]] = value;
    }
    const info = route.spec.divert?.(params) ?? route.spec;
    return { notFound: true, dialect: info.dialect, sessionId, info, params };
  }
  return wrongMethod && { notFound: true, dialect: wrongMethod.dialect, allow: wrongMethod.method, sessionId };
}

/** A path segment percent-decoded, or undefined when its escapes are malformed. */
export function decodedSegment(text: string): string | undefined {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** A path that cannot be read, answered in `dialect`'s shape. */
function badPath(segment: string, dialect: ChatDialect): RouteResult {
  return { badPath: `the URL path segment "${segment}" is not valid percent-encoding`, dialect };
}

/** Each parametrised route's path as a pattern anchored at its end only: a request that ends the way
 * one does under a wrong base URL (`/v1/model/{modelId}/converse`, a trailing slash's `//model/…`)
 * is that route's dialect's, so its SDK can read the 404 (the AWS client reads only its own shape). */
let endings: { regex: RegExp; dialect: ChatDialect }[] | undefined;

function routeEndings(): { regex: RegExp; dialect: ChatDialect }[] {
  endings ??= DIALECTS.flatMap((registration) =>
    registration.routes
      .filter((spec) => spec.path.includes('{'))
      .map((spec) => ({
        regex: new RegExp(`${spec.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        dialect: spec.dialect,
      })),
  );
  return endings;
}

/** Unknown paths answer in the shape of the provider whose path space they are in: the route they
 * end like, else the one whose fixed start they share most of. */
function dialectForUnknownPath(path: string): ChatDialect {
  const byEnd = routeEndings().find((ending) => ending.regex.test(path));
  if (byEnd) return byEnd.dialect;
  let best: { length: number; dialect: ChatDialect } | undefined;
  for (const registration of DIALECTS) {
    for (const spec of registration.routes) {
      const stem = spec.path.split('{')[0];
      let common = 0;
      while (common < stem.length && common < path.length && stem[common] === path[common]) common++;
      if (common > 1 && (!best || common > best.length)) best = { length: common, dialect: spec.dialect };
    }
  }
  return best?.dialect ?? openaiChat;
}

/** The dialect whose shape a route result answers in, matched or not. */
export function dialectOf(route: RouteResult): ChatDialect {
  return 'operation' in route ? route.operation.dialect : route.dialect;
}

export function operationById(id: string): Operation | undefined {
  return operations.get(id);
}

export function providerRoutes(): string[] {
  return DIALECTS.flatMap((d) => d.routes.map((r) => `${r.method} ${r.path}`));
}

/** The providers of the chat operations, as their ids begin (`openai` of `openai.chat.completions`):
 * the names record mode's upstreams are given by. */
export const CHAT_PROVIDERS: readonly string[] = [...new Set([...operations.keys()].map(providerOf))].sort();

/** The provider of an operation id: `openai` of `openai.chat.completions`. */
export function providerOf(operation: string): string {
  return operation.slice(0, operation.indexOf('.'));
}
