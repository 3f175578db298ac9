// The docs name everything the code has: every predicate, reply field, scenario, step and session
// field of schema/fixtures.schema.json appears in docs/fixtures.md; every control route the router
// answers, and every field its bodies take, appears in docs/control-api.md and docs/control-api.yaml
// (and nothing documented there is missing from the server). The routes and fields are taken from
// the running server (the router's own "unknown field; expected one of …" answers, and probing each
// path the router's source spells with every method), so a route or field added to the code
// without its docs fails here.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { startUnderstudy, type Understudy } from '../src/client/index.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const SCHEMA = JSON.parse(read('schema/fixtures.schema.json')) as {
  properties: { session: { properties: Record<string, unknown> } };
  definitions: Record<string, { properties: Record<string, { enum?: string[] }> }>;
};
const FIXTURES_MD = read('docs/fixtures.md');
const CONTROL_MD = read('docs/control-api.md');
const CONTROL_YAML = parse(read('docs/control-api.yaml')) as {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> } }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
};

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

let mock: Understudy;
before(async () => {
  mock = await startUnderstudy();
});
after(() => mock.close());

async function control(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${mock.baseUrl}/_understudy${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The field names a route's "unknown field" refusal lists. */
async function fieldsListed(method: string, path: string): Promise<string[]> {
  const { status, body } = await control(method, path, { not_a_field_anywhere: 1 });
  assert.equal(status, 400, JSON.stringify(body));
  const listed = /unknown field; expected (?:one of )?(.+)$/.exec(body.error.message)?.[1];
  assert.ok(listed, body.error.message);
  return listed
    .replace(/"/g, '')
    .split(/, | or /)
    .map((s) => s.trim());
}

/** Is `name` written as code (`name`, or `name?`, `name:` inside a code span) in this text? */
function mentions(text: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`\`[^\`\\n]*(?<![\\w-])${escaped}(?![\\w-])[^\`\\n]*\``).test(text);
}

/** The rows of a markdown table whose first column is a code span: those names. */
function tableKeys(markdown: string, heading: string): Set<string> {
  const start = markdown.indexOf(heading);
  assert.ok(start >= 0, `a section "${heading}"`);
  const section = markdown.slice(start + heading.length).split(/\n#{1,3} /)[0];
  const keys = new Set<string>();
  for (const m of section.matchAll(/^\| ([^|]+)\|/gm)) for (const k of m[1].matchAll(/`([^`]+)`/g)) keys.add(k[1]);
  return keys;
}

test('docs/fixtures.md: every predicate and every reply field has its row', () => {
  const predicates = tableKeys(FIXTURES_MD, '## `when`: predicates');
  for (const key of Object.keys(SCHEMA.definitions.when.properties)) assert.ok(predicates.has(key), `predicate \`${key}\` has a row`);
  for (const key of predicates) assert.ok(key in SCHEMA.definitions.when.properties, `row \`${key}\` is a predicate`);
  const reply = tableKeys(FIXTURES_MD, '## `reply`');
  for (const key of Object.keys(SCHEMA.definitions.reply.properties)) assert.ok(reply.has(key), `reply field \`${key}\` has a row`);
  for (const key of reply) assert.ok(key in SCHEMA.definitions.reply.properties, `row \`${key}\` is a reply field`);
});

test('docs/fixtures.md: every scenario, step, session, error, pacing and fault field, and every fault kind, is named', () => {
  const groups: Record<string, string[]> = {
    session: Object.keys(SCHEMA.properties.session.properties),
    scenario: Object.keys(SCHEMA.definitions.scenario.properties),
    step: Object.keys(SCHEMA.definitions.step.properties),
    error: Object.keys(SCHEMA.definitions.error.properties),
    pacing: Object.keys(SCHEMA.definitions.pacing.properties),
    fault: Object.keys(SCHEMA.definitions.fault.properties),
    'fault kind': SCHEMA.definitions.fault.properties.kind.enum ?? [],
  };
  assert.ok(groups['fault kind'].length >= 6);
  for (const [group, names] of Object.entries(groups)) {
    for (const name of names) assert.ok(mentions(FIXTURES_MD, name), `${group} field \`${name}\` is named in docs/fixtures.md`);
  }
});

/** Every route the server answers: each path the router's source spells, probed with every method. */
async function liveRoutes(): Promise<Set<string>> {
  const source = read('src/control/api.ts');
  const words = new Set([...source.matchAll(/rest\[\d\] [!=]== '([a-z-]+)'|case '([a-z-]+)'/g)].map((m) => m[1] ?? m[2]));
  assert.ok(words.has('sessions') && words.has('health'), [...words].join(' '));
  const candidates = new Set<string>(['/sessions', '/sessions/{id}']);
  for (const a of words) {
    candidates.add(`/${a}`);
    candidates.add(`/sessions/{id}/${a}`);
    for (const b of words) candidates.add(`/${a}/${b}`);
  }
  // Paths with a parameter of their own: probed with a value, documented with its name.
  const parameters: Record<string, string> = { '/sessions/{id}/journal/{seq}': '', '/ui/{file}': 'index.html' };
  for (const path of Object.keys(parameters)) candidates.add(path);
  const routes = new Set<string>();
  for (const path of candidates) {
    for (const method of METHODS) {
      // Each probe gets a session to act on (DELETE removes it); an entry's route, an entry.
      await control('POST', '/sessions', { id: 'probe' });
      let newest = '';
      if (path.includes('{seq}')) {
        const res = await fetch(`${mock.baseUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-understudy-session': 'probe' },
          body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'probe' }] }),
        });
        await res.arrayBuffer();
        newest = String((await control('GET', '/sessions/probe/journal')).body.entries.at(-1).seq);
      }
      const probe = path
        .replace('{id}', 'probe')
        .replace('{seq}', newest)
        .replace('{file}', parameters[path] ?? '');
      // Only the status: an event stream's body never ends, and a redirect is an answer of its own.
      const res = await fetch(`${mock.baseUrl}/_understudy${probe}`, { method, redirect: 'manual' });
      await res.body?.cancel();
      // 404: no such path (or, for /sessions/X, no session X: the probe session always exists).
      const missing = res.status === 405 || res.status === 404;
      if (!missing) routes.add(`${method} /_understudy${path}`);
    }
  }
  return routes;
}

test('docs/control-api.md and docs/control-api.yaml list exactly the routes the server answers', async () => {
  const live = await liveRoutes();
  assert.ok(live.has('PUT /_understudy/sessions/{id}/chaos') && live.has('GET /_understudy/health'), [...live].join('\n'));
  const inMarkdown = new Set(
    [...CONTROL_MD.matchAll(/^\| (GET|POST|PUT|DELETE|PATCH)((?:, (?:GET|POST|PUT|DELETE|PATCH))*) +\| `([^`]+)`/gm)].flatMap((m) =>
      [m[1], ...m[2].split(', ').filter(Boolean)].map((method) => `${method} ${m[3]}`),
    ),
  );
  const inYaml = new Set(
    Object.entries(CONTROL_YAML.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((k) => METHODS.includes(k.toUpperCase() as (typeof METHODS)[number]))
        .map((method) => `${method.toUpperCase()} ${path}`),
    ),
  );
  for (const route of live) {
    assert.ok(inMarkdown.has(route), `${route} has a row in docs/control-api.md`);
    assert.ok(inYaml.has(route), `${route} is in docs/control-api.yaml`);
  }
  for (const route of inMarkdown) assert.ok(live.has(route), `docs/control-api.md's ${route} is answered by the server`);
  for (const route of inYaml) assert.ok(live.has(route), `docs/control-api.yaml's ${route} is answered by the server`);
});

/** The property names of the JSON request body the OpenAPI document gives a route. */
function yamlBodyFields(path: string, method: string): string[] {
  let schema = CONTROL_YAML.paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema as
    { $ref?: string; properties?: Record<string, unknown> } | undefined;
  if (schema?.$ref?.startsWith('#/components/schemas/')) schema = CONTROL_YAML.components.schemas[schema.$ref.split('/').pop()!];
  return Object.keys(schema?.properties ?? {});
}

test('every field a control body takes is in docs/control-api.yaml and docs/control-api.md', async () => {
  await control('POST', '/sessions', { id: 'fields' });
  const bodies: [string, string, string][] = [
    ['POST', '/sessions', '/_understudy/sessions'],
    ['PUT', '/sessions/fields/chaos', '/_understudy/sessions/{id}/chaos'],
    ['POST', '/sessions/fields/reset', '/_understudy/sessions/{id}/reset'],
    ['POST', '/sessions/fields/verify', '/_understudy/sessions/{id}/verify'],
  ];
  for (const [method, probe, documented] of bodies) {
    const fields = await fieldsListed(method, probe);
    assert.ok(fields.length >= 1);
    const inYaml = yamlBodyFields(documented, method.toLowerCase());
    const row =
      CONTROL_MD.split('\n').find((l) => new RegExp(`^\\| ${method}\\b[^|]*\\| \`${documented.replace(/[{}]/g, '\\$&')}\``).test(l)) ?? '';
    for (const field of fields) {
      assert.ok(inYaml.includes(field), `${method} ${documented}: \`${field}\` is in the OpenAPI request body`);
      assert.ok(
        mentions(row, field) || mentions(sectionAbout(documented), field),
        `${method} ${documented}: \`${field}\` is named in docs/control-api.md`,
      );
    }
    for (const field of inYaml)
      assert.ok(fields.includes(field), `${method} ${documented}: the documented \`${field}\` is taken by the server`);
  }
});

/** docs/control-api.md's sections (after the route table) that name this path, for bodies with
 * more fields than a row holds. */
function sectionAbout(path: string): string {
  return CONTROL_MD.split(/\n## /)
    .slice(1)
    .filter((section) => section.includes(`${path}\``))
    .join('\n## ');
}
