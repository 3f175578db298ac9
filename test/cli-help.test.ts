// The command explains itself, run as a user runs it (from the current source here and in
// cli-help-usage.test.ts, the built bin in cli-help-dist.test.ts; the cases are
// test/support/cli-help-cases.ts):
// `--help`, `help serve`, `serve --help` and `validate --help` describe every flag the command
// parses with its default; `--version` is package.json's; a mistyped command or flag gets a
// "did you mean" and exit 2, never node's parseArgs wording; output into a closed pipe
// (`understudy serve | head -1`) ends quietly instead of an unhandled EPIPE.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { DRIFT_FLAGS, JOURNAL_FLAGS } from '../src/cli/commands.js';
import { editDistance, nearest } from '../src/cli/did-you-mean.js';
import { describeCliHelp, SERVE_FLAGS } from './support/cli-help-cases.js';
import { CLIS, killChildren, ROOT } from './support/cli-process.js';

after(killChildren);

describeCliHelp(CLIS[0], ['help']);

test("the README's command-line section names exactly the flags serve parses, and only flags of its commands", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = /## Command line\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const named = new Set([...block.matchAll(/--([a-z-]+)/g)].map((m) => m[1]));
  for (const flag of [...Object.keys(SERVE_FLAGS), 'help', 'version']) assert.ok(named.has(flag), `README names --${flag}`);
  const others = new Set([...DRIFT_FLAGS, ...JOURNAL_FLAGS].map((f) => f.name));
  for (const flag of named) {
    assert.ok(flag in SERVE_FLAGS || others.has(flag) || flag === 'help' || flag === 'version', `README's --${flag} exists`);
  }
});

test('editDistance counts a swap of neighbours as one edit; nearest() guesses only what is close', () => {
  assert.equal(editDistance('sevre', 'serve'), 1);
  assert.equal(editDistance('fixtrues', 'fixtures'), 1);
  assert.equal(editDistance('', 'port'), 4);
  assert.equal(nearest('strcit', ['strict', 'port']), 'strict');
  assert.equal(nearest('colour', ['cors', 'port']), undefined);
  assert.equal(nearest('fix', ['fixtures', 'host']), 'fixtures', 'an abbreviation');
  assert.equal(nearest('max', ['max-reply-bytes', 'max-stream-chunks']), undefined, 'an ambiguous abbreviation is no guess');
  fc.assert(
    fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
      const d = editDistance(a, b);
      assert.equal(d, editDistance(b, a));
      assert.equal(d === 0, a === b);
      assert.ok(d <= Math.max(a.length, b.length));
      assert.ok(d >= Math.abs(a.length - b.length));
    }),
  );
});
