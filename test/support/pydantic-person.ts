// A model as pydantic v2 emits it for a strict response_format (openai's to_strict_json_schema, what
// Python's `client.chat.completions.parse(response_format=Person)` sends): every property
// required, Optional as anyOf with null, enums and nested models in $defs.

import type { JsonSchema } from '../../src/core/model.js';

export const PYDANTIC_PERSON = {
  $defs: {
    Address: {
      additionalProperties: false,
      properties: {
        street: { title: 'Street', type: 'string' },
        postcode: { anyOf: [{ type: 'string' }, { type: 'null' }], title: 'Postcode' },
      },
      required: ['street', 'postcode'],
      title: 'Address',
      type: 'object',
    },
    Role: { enum: ['admin', 'member'], title: 'Role', type: 'string' },
  },
  additionalProperties: false,
  properties: {
    name: { title: 'Name', type: 'string' },
    age: { title: 'Age', type: 'integer' },
    role: { $ref: '#/$defs/Role' },
    address: { $ref: '#/$defs/Address' },
    previous: { anyOf: [{ $ref: '#/$defs/Address' }, { type: 'null' }] },
    tags: { items: { type: 'string' }, title: 'Tags', type: 'array' },
    score: { anyOf: [{ type: 'number' }, { type: 'null' }], title: 'Score' },
  },
  required: ['name', 'age', 'role', 'address', 'previous', 'tags', 'score'],
  title: 'Person',
  type: 'object',
} satisfies JsonSchema;
