// Derives the structural facts of OpenAI's published OpenAPI document (openai/openai-openapi, MIT
// licensed, Copyright (c) OpenAI) that test/openapi-conformance.test.ts checks Understudy against:
// the schemas reachable from Chat Completions, Responses, Embeddings and Images (request, response, stream
// event) and the error body, with types, required members, enums, ranges, lengths, formats,
// patterns, defaults, nullability and composition kept, and every piece of prose (descriptions,
// titles, examples, x-oaiMeta and the other x- extensions, discriminator hints) left out. A keyword
// this script does not know stops it, so a new kind of fact in a later document is never dropped
// silently.
//
// Regenerate (docs/conformance.md):
//   git clone https://github.com/openai/openai-openapi /some/dir/openai-openapi
//   node scripts/derive-openapi-facts.mjs --git-dir /some/dir/openai-openapi/.git [--rev main]
// or, from a file already on disk:
//   node scripts/derive-openapi-facts.mjs --spec openapi.yaml --commit <sha> --date <ISO date>
// It writes test/fixtures/openapi/openai-<info.version>.json (prettier-formatted).

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { format, resolveConfig } from 'prettier';
import { parse } from 'yaml';

const SPEC_FILE = 'openapi.yaml';
const REPOSITORY = 'https://github.com/openai/openai-openapi';

/** Where each checked body starts: a name the test uses, and the document's schema for it. */
const ROOTS = {
  'chat.request': 'CreateChatCompletionRequest',
  'chat.response': 'CreateChatCompletionResponse',
  'chat.chunk': 'CreateChatCompletionStreamResponse',
  'responses.request': 'CreateResponse',
  'responses.response': 'Response',
  'responses.event': 'ResponseStreamEvent',
  'embeddings.request': 'CreateEmbeddingRequest',
  'embeddings.response': 'CreateEmbeddingResponse',
  'images.generate.request': 'CreateImageRequest',
  'images.edit.request': 'CreateImageEditRequest',
  'images.edit.json-request': 'EditImageBodyJsonParam',
  'images.response': 'ImagesResponse',
  'images.generate.event': 'ImageGenStreamEvent',
  'images.edit.event': 'ImageEditStreamEvent',
  error: 'ErrorResponse',
};

/** Keywords whose value is a fact and no schema. */
const VALUE_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'default',
  'nullable',
  'required',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minProperties',
  'maxProperties',
]);
/** Keywords whose value is one schema, a list of them, or a map of them. */
const ONE_SCHEMA = new Set(['items', 'not', 'propertyNames', 'contains', 'additionalProperties']);
const SCHEMA_LIST = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_MAP = new Set(['properties', 'patternProperties']);
/** Prose and generator hints: left out. `discriminator` only names the member a oneOf already
 * tells its branches apart by (each branch's `type` enum), and says nothing the branches do not. */
const DROPPED = new Set(['description', 'title', 'example', 'examples', 'deprecated', 'discriminator', 'externalDocs', '$comment']);

function derive(schemas, component) {
  const dropped = new Map();
  const note = (key) => dropped.set(key, (dropped.get(key) ?? 0) + 1);

  function schema(node, at) {
    if (typeof node === 'boolean') return node;
    if (typeof node !== 'object' || node === null || Array.isArray(node)) throw new Error(`${at}: not a schema`);
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      const here = `${at}/${key}`;
      if (key === '$ref') {
        if (typeof value !== 'string' || !value.startsWith('#/components/schemas/')) throw new Error(`${here}: unexpected $ref ${value}`);
        out.$ref = value;
      } else if (key === '$recursiveRef') {
        // Draft 2019-09's recursion, which 2020-12 validators no longer read: in this document it
        // only ever points back at the component it sits in (no component extends another
        // dynamically), so a plain $ref to that component says the same.
        if (value !== '#') throw new Error(`${here}: unexpected $recursiveRef ${value}`);
        out.$ref = `#/components/schemas/${component.name}`;
      } else if (key === '$recursiveAnchor') {
        note(key);
      } else if (VALUE_KEYWORDS.has(key)) {
        out[key] = value;
      } else if (ONE_SCHEMA.has(key)) {
        out[key] = schema(value, here);
      } else if (SCHEMA_LIST.has(key)) {
        out[key] = value.map((item, i) => schema(item, `${here}/${i}`));
      } else if (SCHEMA_MAP.has(key)) {
        out[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, schema(item, `${here}/${name}`)]));
      } else if (DROPPED.has(key) || key.startsWith('x-')) {
        note(key);
      } else {
        throw new Error(`${here}: keyword '${key}' is neither a known fact nor known prose; teach derive-openapi-facts.mjs what it is`);
      }
    }
    return out;
  }

  const kept = {};
  const pending = Object.values(ROOTS);
  while (pending.length > 0) {
    const name = pending.pop();
    if (Object.hasOwn(kept, name)) continue;
    if (!Object.hasOwn(schemas, name)) throw new Error(`#/components/schemas/${name} is referenced but not defined`);
    component.name = name;
    const facts = schema(schemas[name], `#/components/schemas/${name}`);
    kept[name] = facts;
    JSON.stringify(facts, (key, value) => {
      if (key === '$ref') pending.push(value.slice('#/components/schemas/'.length));
      return value;
    });
  }
  const sorted = Object.fromEntries(
    Object.keys(kept)
      .sort()
      .map((name) => [name, kept[name]]),
  );
  return { schemas: sorted, dropped: Object.fromEntries([...dropped].sort(([a], [b]) => a.localeCompare(b))) };
}

function readSource(args) {
  if (args['git-dir']) {
    const git = (...rest) => execFileSync('git', ['--git-dir', args['git-dir'], ...rest], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const rev = args.rev ?? 'HEAD';
    const [commit, date] = git('log', '-1', '--format=%H %cI', rev, '--', SPEC_FILE).trim().split(' ');
    return { text: git('show', `${commit}:${SPEC_FILE}`), commit, date };
  }
  if (!args.spec || !args.commit || !args.date)
    throw new Error('give --git-dir <dir> [--rev <rev>], or --spec <file> --commit <sha> --date <ISO date>');
  return { text: readFileSync(args.spec, 'utf8'), commit: args.commit, date: args.date };
}

const { values: args } = parseArgs({
  options: {
    'git-dir': { type: 'string' },
    rev: { type: 'string' },
    spec: { type: 'string' },
    commit: { type: 'string' },
    date: { type: 'string' },
  },
});
const source = readSource(args);
const document = parse(source.text, { maxAliasCount: -1 });
const version = document.info.version;
const { schemas, dropped } = derive(document.components.schemas, { name: '' });
const fixture = {
  source: {
    repository: REPOSITORY,
    file: SPEC_FILE,
    commit: source.commit,
    date: source.date,
    openapi: document.openapi,
    version,
    license: 'MIT; Copyright (c) OpenAI (https://openai.com). Structural facts only: no description, title or example text is kept.',
    regenerate: `node scripts/derive-openapi-facts.mjs --git-dir <clone of ${REPOSITORY}>/.git --rev ${source.commit}`,
  },
  roots: ROOTS,
  droppedKeywords: dropped,
  schemas,
};

const target = fileURLToPath(new URL(`../test/fixtures/openapi/openai-${version}.json`, import.meta.url));
mkdirSync(fileURLToPath(new URL('../test/fixtures/openapi/', import.meta.url)), { recursive: true });
const options = (await resolveConfig(target)) ?? {};
writeFileSync(target, await format(JSON.stringify(fixture), { ...options, filepath: target }));
console.log(
  `wrote ${target}: ${Object.keys(schemas).length} schemas from ${REPOSITORY}@${source.commit} (version ${version}, ${source.date})`,
);
