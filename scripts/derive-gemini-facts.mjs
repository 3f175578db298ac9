// Derives the structural facts of the Gemini API's published description — the
// google.ai.generativelanguage.v1beta protos in googleapis/googleapis (Apache-2.0, Copyright
// Google LLC), from which Google's Discovery document for generativelanguage v1beta is generated —
// as JSON Schema in the shape proto3's JSON mapping gives the wire: lowerCamelCase member names,
// enums by name, 64-bit integers as numbers or decimal strings, every message a closed object,
// each real oneof "at most one of", REQUIRED field behaviour as `required`, and the request's
// path-bound fields (`model`) left out of its body. Comments (the protos' prose) are not read.
// test/openapi-conformance.test.ts validates Understudy's Gemini answers against the result.
//
// protobufjs (the proto parser) comes with @google/genai, a devDependency.
//
// Regenerate (docs/conformance.md):
//   git clone https://github.com/googleapis/googleapis /some/dir/googleapis
//   node scripts/derive-gemini-facts.mjs --git-dir /some/dir/googleapis/.git [--rev master]
// It writes test/fixtures/google/generativelanguage-v1beta.json (prettier-formatted).

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { format, resolveConfig } from 'prettier';
import protobuf from 'protobufjs';

const REPOSITORY = 'https://github.com/googleapis/googleapis';
const FOLDER = 'google/ai/generativelanguage/v1beta';
const PACKAGE = 'google.ai.generativelanguage.v1beta';
const SERVICE = `${PACKAGE}.GenerativeService`;

/** Each checked body: a name the test uses, the rpc, and which side of it. */
const ROOTS = {
  'gemini.request': { rpc: 'GenerateContent', side: 'request' },
  'gemini.response': { rpc: 'GenerateContent', side: 'response' },
};

const INT64 = { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^-?[0-9]+$' }] };
const SCALARS = {
  string: { type: 'string' },
  bytes: { type: 'string' },
  bool: { type: 'boolean' },
  double: { type: 'number' },
  float: { type: 'number' },
  int32: { type: 'integer' },
  sint32: { type: 'integer' },
  sfixed32: { type: 'integer' },
  uint32: { type: 'integer', minimum: 0 },
  fixed32: { type: 'integer', minimum: 0 },
  int64: INT64,
  sint64: INT64,
  sfixed64: INT64,
  uint64: INT64,
  fixed64: INT64,
};
/** The well-known types, as proto3's JSON mapping writes them. */
const WELL_KNOWN = {
  'google.protobuf.Struct': { type: 'object' },
  'google.protobuf.Value': {},
  'google.protobuf.ListValue': { type: 'array' },
  'google.protobuf.Duration': { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?s$' },
  'google.protobuf.Timestamp': { type: 'string', format: 'date-time' },
  'google.protobuf.Empty': { type: 'object', additionalProperties: false },
  'google.protobuf.FieldMask': { type: 'string' },
  'google.protobuf.Any': { type: 'object', required: ['@type'] },
  'google.type.Date': {
    type: 'object',
    properties: { year: { type: 'integer' }, month: { type: 'integer' }, day: { type: 'integer' } },
    additionalProperties: false,
  },
  'google.type.LatLng': {
    type: 'object',
    properties: { latitude: { type: 'number' }, longitude: { type: 'number' } },
    additionalProperties: false,
  },
  'google.type.Interval': {
    type: 'object',
    properties: { startTime: { type: 'string', format: 'date-time' }, endTime: { type: 'string', format: 'date-time' } },
    additionalProperties: false,
  },
};

const jsonName = (field) => field.options?.json_name ?? field.name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const shortName = (type) => type.fullName.slice(PACKAGE.length + 2);

function derive(root) {
  const schemas = {};
  const pending = [];
  const refTo = (type) => {
    const name = shortName(type);
    if (!Object.hasOwn(schemas, name)) {
      schemas[name] = null;
      pending.push(type);
    }
    return { $ref: `#/components/schemas/${name}` };
  };

  function fieldSchema(field) {
    field.resolve();
    let item;
    if (Object.hasOwn(SCALARS, field.type)) item = SCALARS[field.type];
    else {
      const type = field.resolvedType;
      if (!type) throw new Error(`${field.fullName}: type ${field.type} not found`);
      const known = WELL_KNOWN[type.fullName.slice(1)];
      if (known) item = known;
      else if (!type.fullName.startsWith(`.${PACKAGE}.`))
        throw new Error(`${field.fullName}: ${type.fullName} is outside ${PACKAGE}; map it`);
      else item = refTo(type);
    }
    if (field.map) return { type: 'object', additionalProperties: item };
    if (field.repeated) return { type: 'array', items: item };
    return item;
  }

  function messageSchema(type, leaveOut = new Set()) {
    const properties = {};
    const required = [];
    for (const field of type.fieldsArray) {
      if (leaveOut.has(field.name)) continue;
      const name = jsonName(field);
      properties[name] = fieldSchema(field);
      if (field.options?.['(google.api.field_behavior)'] === 'REQUIRED') required.push(name);
    }
    const schema = { type: 'object', properties, additionalProperties: false };
    if (required.length > 0) schema.required = required;
    // A real oneof (not proto3 `optional`'s synthetic one): at most one of its members.
    const pairs = [];
    for (const oneof of type.oneofsArray) {
      if (oneof.name.startsWith('_')) continue;
      const members = oneof.oneof.filter((m) => !leaveOut.has(m)).map((m) => jsonName(type.fields[m]));
      for (let i = 0; i < members.length; i++)
        for (let j = i + 1; j < members.length; j++) pairs.push({ required: [members[i], members[j]] });
    }
    if (pairs.length > 0) schema.not = { anyOf: pairs };
    return schema;
  }

  const enumSchema = (type) => ({ type: 'string', enum: Object.keys(type.values) });

  const service = root.lookupService(SERVICE);
  const roots = {};
  for (const [key, { rpc, side }] of Object.entries(ROOTS)) {
    const method = service.methods[rpc];
    method.resolve();
    const type = side === 'request' ? method.resolvedRequestType : method.resolvedResponseType;
    if (side === 'request') {
      // Fields bound to the URL path (`{model=models/*}`) are not in the body (`body: "*"`).
      const path = method.options['(google.api.http).post'];
      const bound = new Set([...path.matchAll(/\{([a-z_]+)=/g)].map((m) => m[1]));
      const name = `${shortName(type)}.body`;
      schemas[name] = messageSchema(type, bound);
      roots[key] = name;
    } else {
      roots[key] = refTo(type).$ref.split('/').pop();
    }
  }
  while (pending.length > 0) {
    const type = pending.pop();
    schemas[shortName(type)] = type instanceof protobuf.Enum ? enumSchema(type) : messageSchema(type);
  }
  return {
    roots,
    schemas: Object.fromEntries(
      Object.keys(schemas)
        .sort()
        .map((k) => [k, schemas[k]]),
    ),
  };
}

const { values: args } = parseArgs({ options: { 'git-dir': { type: 'string' }, rev: { type: 'string' } } });
if (!args['git-dir']) throw new Error('give --git-dir <clone of googleapis>/.git [--rev <rev>]');
const git = (...rest) => execFileSync('git', ['--git-dir', args['git-dir'], ...rest], { encoding: 'utf8', maxBuffer: 1 << 26 });
const [commit, date] = git('log', '-1', '--format=%H %cI', args.rev ?? 'HEAD', '--', FOLDER)
  .trim()
  .split(' ');
const root = new protobuf.Root();
// The well-known types as empty stand-ins: their JSON form is WELL_KNOWN's, not their fields'.
for (const name of Object.keys(WELL_KNOWN)) {
  const dot = name.lastIndexOf('.');
  protobuf.parse(`syntax = "proto3"; package ${name.slice(0, dot)}; message ${name.slice(dot + 1)} {}`, root);
}
const files = git('ls-tree', '--name-only', `${commit}:${FOLDER}`)
  .split('\n')
  .filter((f) => f.endsWith('.proto'));
for (const file of files) protobuf.parse(git('show', `${commit}:${FOLDER}/${file}`), root, { keepCase: true });
const { roots, schemas } = derive(root);
const fixture = {
  source: {
    repository: REPOSITORY,
    folder: FOLDER,
    commit,
    date,
    version: `${PACKAGE} (last changed ${date.slice(0, 10)})`,
    license: 'Apache-2.0; Copyright Google LLC. Structural facts only: no comment text is kept.',
    regenerate: `node scripts/derive-gemini-facts.mjs --git-dir <clone of ${REPOSITORY}>/.git --rev ${commit}`,
  },
  roots,
  schemas,
};
const target = fileURLToPath(new URL('../test/fixtures/google/generativelanguage-v1beta.json', import.meta.url));
mkdirSync(fileURLToPath(new URL('../test/fixtures/google/', import.meta.url)), { recursive: true });
const options = (await resolveConfig(target)) ?? {};
writeFileSync(target, await format(JSON.stringify(fixture), { ...options, filepath: target }));
console.log(`wrote ${target}: ${Object.keys(schemas).length} schemas from ${REPOSITORY}@${commit} (${FOLDER}, ${date})`);
