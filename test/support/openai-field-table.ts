// The runner behind the OpenAI field tables (Chat Completions and Responses): each row is a field
// with values the API takes and values it refuses, each refusal with its code and `param`. Sent
// through the real openai SDK; a refusal must be its 400 in OpenAI's shape and message style.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import OpenAI from 'openai';

export type Body = Record<string, unknown>;
/** [value, code, param (when not the row's field)] */
export type Bad = [unknown, string | null, string?];
export interface FieldRow {
  field: string;
  /** The request with the field set to `v`; default: the base request plus the top-level field. */
  body?: (v: unknown) => Body;
  ok: unknown[];
  bad: Bad[];
}

export function runFieldTable(
  title: string,
  rows: FieldRow[],
  base: Body,
  send: (body: Body) => Promise<unknown>,
  messageStyle: (code: string | null, param: string) => RegExp,
): void {
  describe(title, () => {
    for (const row of rows) {
      const build = row.body ?? ((v: unknown) => ({ ...base, [row.field]: v }));
      test(row.field, async () => {
        for (const value of row.ok) {
          await send(build(value)).catch((e: unknown) => assert.fail(`${row.field} = ${JSON.stringify(value)} refused: ${String(e)}`));
        }
        for (const [value, code, param = row.field] of row.bad) {
          const what = `${row.field} = ${JSON.stringify(value)?.slice(0, 60)}`;
          const error = await send(build(value)).then(
            () => assert.fail(`${what}: accepted`),
            (e: unknown) => e,
          );
          assert.ok(error instanceof OpenAI.BadRequestError, `${what}: expected a 400, got ${String(error)}`);
          assert.equal(error.type, 'invalid_request_error', what);
          assert.equal(error.param, param, `${what}: param (${error.message})`);
          assert.equal(error.code, code, `${what}: code (${error.message})`);
          assert.match((error.error as { message: string }).message, messageStyle(code, param), what);
        }
      });
    }
  });
}
