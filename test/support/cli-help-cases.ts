// The command-line help cases, run once per way the command is run (test/cli-help.test.ts and
// cli-help-usage and -pipes from the current source, test/cli-help-dist.test.ts from the built bin):
// spread over files, since they spawn the command some thirty times.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runCli, type Cli, type Run } from './cli-process.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

// What each command parses, written out here (not read from src/cli) so that a flag dropped from
// the help, or a default left out, fails.
export const SERVE_FLAGS: Record<string, string> = {
  host: '127.0.0.1',
  port: '8100',
  fixtures: 'none',
  strict: 'zero-config answers',
  'control-token': '$UNDERSTUDY_CONTROL_TOKEN',
  cors: 'none',
  'allow-host': 'loopback only',
  workers: '1',
  latency: 'none',
  'chaos-drop': 'none',
  'rate-limit-after': 'none',
  'content-filter': 'none',
  log: 'text',
  quiet: 'off: requests are logged',
  'no-metrics': 'off: metrics are served',
  'journal-bodies': 'off',
  record: 'off',
  upstream: 'none',
  'record-mode': 'missing',
  'record-layout': 'session',
  'record-match': 'conversation',
  redact: '$.user, $.metadata.user_id, $.safety_identifier, $.prompt_cache_key',
  'no-default-redactions': 'off',
  replay: 'off',
  'record-timing': 'off: recordings replay at full speed',
  'max-reply-bytes': '16,777,216',
  'max-stream-chunks': '100,000',
};
const VALIDATE_FLAGS: Record<string, string> = { 'max-reply-bytes': '16,777,216', 'max-stream-chunks': '100,000' };

/** The help's entry for a flag: its name line and the indented description under it. */
function entry(help: string, flag: string): string | undefined {
  const m = new RegExp(`^ {2}(?:-\\w, )?--${flag}\\b[^\\n]*\\n((?: {6}[^\\n]*\\n?)+)`, 'm').exec(help);
  return m?.[1].replace(/\s+/g, ' ');
}

function assertDescribes(help: string, flags: Record<string, string>): void {
  for (const [flag, defaultText] of Object.entries(flags)) {
    const text = entry(help, flag);
    assert.ok(text, `--${flag} is described:\n${help}`);
    assert.ok(text.length > 30, `--${flag} has a real description: ${text}`);
    assert.ok(text.includes(`Default: ${defaultText}`), `--${flag} names its default (${defaultText}): ${text}`);
  }
  assert.ok(entry(help, 'help'), '--help itself is listed');
}

/** Bad usage: exit 2, one line in our words, no stack trace or parseArgs error code. */
function assertUsageError(run: Run, message: RegExp): void {
  assert.equal(run.code, 2, run.stdout + run.stderr);
  assert.match(run.stderr, message);
  assert.doesNotMatch(run.stderr, /ERR_PARSE_ARGS|TypeError|parseArgs|\n\s+at /);
  assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
}

/** The help cases (`--help`, `--version`) and the usage cases (mistakes, pipes): a file from source
 * runs one part. */
export type CliHelpPart = 'help' | 'usage' | 'pipes';

export function describeCliHelp(cli: Cli, parts: readonly CliHelpPart[] = ['help', 'usage', 'pipes']): void {
  describe(`understudy from ${cli.name}: ${parts.join(', ')}`, { skip: cli.skip }, () => {
    if (parts.includes('help')) describeHelp(cli);
    if (parts.includes('usage')) describeUsage(cli);
    if (parts.includes('pipes')) describePipes(cli);
  });
}

function describeHelp(cli: Cli): void {
  test('--help, -h and no arguments list the commands; help COMMAND, COMMAND --help and -h describe its flags', async () => {
    for (const args of [['--help'], ['-h'], [], ['help']]) {
      const run = await runCli(cli, args);
      assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
      assert.equal(run.stderr, '');
      for (const command of ['serve', 'validate', 'help']) assert.match(run.stdout, new RegExp(`^ {2}${command} +\\S`, 'm'));
      assert.match(run.stdout, /--version/);
      assert.ok(run.stdout.includes(VERSION));
    }
    for (const args of [
      ['help', 'serve'],
      ['serve', '--help'],
      ['serve', '-h'],
      ['serve', '--port', '9', '--help'],
    ]) {
      const run = await runCli(cli, args);
      assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stdout, /^usage: understudy serve/);
      assertDescribes(run.stdout, SERVE_FLAGS);
    }
    for (const args of [
      ['help', 'validate'],
      ['validate', '--help'],
    ]) {
      const run = await runCli(cli, args);
      assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stdout, /^usage: understudy validate FILE/);
      assertDescribes(run.stdout, VALIDATE_FLAGS);
      assert.equal(entry(run.stdout, 'port'), undefined, 'validate lists only its own flags');
    }
  });

  test('--version and -v print the version in package.json', async () => {
    for (const flag of ['--version', '-v']) {
      const run = await runCli(cli, [flag]);
      assert.equal(run.code, 0);
      assert.equal(run.stdout, `${VERSION}\n`);
    }
  });
}

function describeUsage(cli: Cli): void {
  test('a mistyped command or flag: exit 2 and the nearest one, in our words', async () => {
    assertUsageError(await runCli(cli, ['sevre']), /unknown command "sevre"; did you mean "serve"\?/);
    assertUsageError(await runCli(cli, ['valdiate', 'x.yaml']), /did you mean "validate"\?/);
    assertUsageError(await runCli(cli, ['--verison']), /unknown command "--verison"; did you mean "--version"\?/);
    assertUsageError(
      await runCli(cli, ['frobnicate']),
      /^understudy: unknown command "frobnicate" \(understudy --help lists the commands\)$/m,
    );
    assertUsageError(await runCli(cli, ['help', 'serv']), /did you mean "serve"\?/);
    assertUsageError(
      await runCli(cli, ['serve', '--fixture', 'examples/queue.yaml']),
      /unknown flag "--fixture" for "understudy serve"; did you mean --fixtures\?/,
    );
    assertUsageError(await runCli(cli, ['serve', '--prot', '0']), /did you mean --port\?/);
    assertUsageError(await runCli(cli, ['serve', '--rate-limit', '3']), /did you mean --rate-limit-after\?/);
    assertUsageError(await runCli(cli, ['validate', '--max-reply-byte', '9', 'x.yaml']), /did you mean --max-reply-bytes\?/);
    // validate does not take serve's flags, and says so.
    assertUsageError(await runCli(cli, ['validate', '--strict', 'x.yaml']), /unknown flag "--strict" for "understudy validate"/);
    // Nothing near: no guess.
    const far = await runCli(cli, ['serve', '--colour']);
    assertUsageError(far, /unknown flag "--colour" for "understudy serve" \(understudy serve --help lists them\)/);
    assert.doesNotMatch(far.stderr, /did you mean/);
  });

  test('a flag without its value, a value for a switch and bad numbers are usage errors, not parseArgs errors', async () => {
    assertUsageError(await runCli(cli, ['serve', '--port']), /--port needs a value: --port PORT/);
    assertUsageError(await runCli(cli, ['serve', '--fixtures', '--strict']), /--fixtures needs a value/);
    assertUsageError(await runCli(cli, ['serve', '--strict=yes']), /--strict takes no value/);
    assertUsageError(await runCli(cli, ['serve', '--port', 'eighty']), /--port must be an integer 0-65535, got "eighty"/);
    assertUsageError(await runCli(cli, ['serve', '--chaos-drop', '150']), /--chaos-drop must be a number from 0 to 100, got "150"/);
    assertUsageError(await runCli(cli, ['serve', '--latency', 'soon']), /--latency must be a number >= 0/);
    assertUsageError(await runCli(cli, ['serve', '--workers', '0']), /--workers must be an integer 1-64 or "auto"/);
    assertUsageError(await runCli(cli, ['validate', '--max-reply-bytes', '0', 'x.yaml']), /--max-reply-bytes must be a positive integer/);
  });
}

function describePipes(cli: Cli): void {
  test('output into a closed pipe: serve stops by itself with exit 0, validate keeps its exit code, no EPIPE', async () => {
    const served = await runCli(cli, ['serve', '--port', '0', '--fixtures', 'examples/weather.yaml'], { closeStdout: true });
    assert.equal(served.signal, null, 'exited by itself, was not killed');
    assert.equal(served.code, 0, served.stderr);
    assert.equal(served.stderr, '');
    const ok = await runCli(cli, ['validate', 'examples/weather.yaml'], { closeStdout: true });
    assert.deepEqual([ok.code, ok.stderr], [0, '']);
    const bad = await runCli(cli, ['validate', 'examples/weather.yaml', 'no-such-file.yaml'], { closeStdout: true });
    assert.deepEqual([bad.code, bad.stderr], [1, '']);
    const help = await runCli(cli, ['serve', '--help'], { closeStdout: true });
    assert.deepEqual([help.code, help.stderr], [0, '']);
  });
}
