// The commands and their flags, as `understudy help` describes them.

import { DEFAULT_REPLY_LIMITS, MAX_REPLY_LIMITS } from '../engine/reply-limits.js';
import { describeFlags, type Flag } from './flags.js';
import { RECORD_FLAGS } from './record-flags.js';

const HELP_FLAG: Flag = { name: 'help', short: 'h', type: 'boolean', description: 'Print this help and exit.' };

const LIMIT_FLAGS: Flag[] = [
  {
    name: 'max-reply-bytes',
    type: 'string',
    value: 'N',
    description: `Largest scripted reply (text or JSON, reasoning and tool arguments together), in UTF-8 bytes; a fixture with a bigger one is refused when it is loaded. At most ${MAX_REPLY_LIMITS.replyBytes.toLocaleString('en-US')} (64 MiB).`,
    default: `${DEFAULT_REPLY_LIMITS.replyBytes.toLocaleString('en-US')} (16 MiB)`,
  },
  {
    name: 'max-stream-chunks',
    type: 'string',
    value: 'N',
    description: `Most entries of one reply's scripted chunks list. At most ${MAX_REPLY_LIMITS.streamChunks.toLocaleString('en-US')}.`,
    default: DEFAULT_REPLY_LIMITS.streamChunks.toLocaleString('en-US'),
  },
];

export const SERVE_FLAGS: Flag[] = [
  {
    name: 'host',
    type: 'string',
    value: 'HOST',
    description: 'Address to listen on. Any address but loopback needs --control-token (docs/security.md).',
    default: '127.0.0.1',
  },
  {
    name: 'port',
    type: 'string',
    value: 'PORT',
    description: 'Port to listen on; 0 picks a free one, and the banner prints which.',
    default: '8100',
  },
  {
    name: 'fixtures',
    type: 'string',
    multiple: true,
    value: 'FILE|DIR...',
    description:
      'YAML or JSON fixture files loaded into the default session (arguments after the flag are more files, so a shell glob works). A directory loads every .yaml, .yml and .json file under it, subdirectories included, in sorted path order. Two files may not define the same scenario name.',
    default: 'none',
  },
  {
    name: 'strict',
    type: 'boolean',
    description:
      "Answer a request no scenario takes with 409 no_match naming the nearest script, instead of a zero-config answer. Wins over a fixture's session.fallback.",
    default: 'zero-config answers, unless a fixture sets session.fallback: strict',
  },
  {
    name: 'control-token',
    type: 'string',
    value: 'TOKEN',
    description: 'Control API requests must carry this token (Authorization: Bearer or x-understudy-control-token).',
    default: '$UNDERSTUDY_CONTROL_TOKEN, else none (then the control API answers loopback requests only)',
  },
  {
    name: 'cors',
    type: 'string',
    multiple: true,
    value: 'ORIGIN...',
    description: 'Web origins allowed to call the server; * allows any.',
    default: 'none',
  },
  {
    name: 'allow-host',
    type: 'string',
    multiple: true,
    value: 'NAME...',
    description: 'Host header names accepted besides loopback ones (localhost, 127.x.x.x, [::1]).',
    default: 'loopback only',
  },
  {
    name: 'workers',
    type: 'string',
    value: 'N|auto',
    description:
      "Processes behind the port, for load tests; auto is one per core. Every session's state stays in worker 0 (docs/workers.md). 1 to 64.",
    default: '1',
  },
  {
    name: 'latency',
    type: 'string',
    value: 'MS',
    description: 'Chaos: wait this many milliseconds before every answer of the default session.',
    default: 'none',
  },
  {
    name: 'chaos-drop',
    type: 'string',
    value: 'PCT',
    description: "Chaos: this percentage (0-100) of the default session's requests get a provider-shaped 500.",
    default: 'none',
  },
  {
    name: 'rate-limit-after',
    type: 'string',
    value: 'N',
    description: 'Chaos: after N requests to the default session, answer 429 with retry-after.',
    default: 'none',
  },
  {
    name: 'content-filter',
    type: 'string',
    multiple: true,
    value: 'TERM...',
    description: "Chaos: a latest user message containing one of these terms gets the provider's content-filter error.",
    default: 'none',
  },
  {
    name: 'log',
    type: 'string',
    value: 'text|json',
    description:
      'The request log: a line per request as it ends (time, session, route, status, the scenario and step that answered or the reason for an error), as text or as JSON lines.',
    default: 'text',
  },
  {
    name: 'quiet',
    type: 'boolean',
    description: 'No request log (the banner is still printed).',
    default: 'off: requests are logged',
  },
  {
    name: 'no-metrics',
    type: 'boolean',
    description: 'No Prometheus metrics at /_understudy/metrics (docs/dashboard.md#metrics).',
    default: 'off: metrics are served',
  },
  {
    name: 'journal-bodies',
    type: 'boolean',
    description:
      "Keep each answer's body in the journal, for the dashboard and GET /_understudy/sessions/ID/journal/SEQ (request bodies are always kept).",
    default: 'off',
  },
  ...RECORD_FLAGS,
  ...LIMIT_FLAGS,
  HELP_FLAG,
];

export const VALIDATE_FLAGS: Flag[] = [...LIMIT_FLAGS, HELP_FLAG];

export const DRIFT_FLAGS: Flag[] = [
  {
    name: 'upstream',
    type: 'string',
    multiple: true,
    value: 'NAME=URL',
    description:
      "Where a recording's provider is re-sent: NAME is its recorded.provider (openai, anthropic, gemini...), URL the base URL its SDK is given (OpenAI's ends in /v1). Repeat it per provider; a step whose provider has none could not be checked.",
    default: 'none',
  },
  {
    name: 'header',
    type: 'string',
    multiple: true,
    value: 'NAME:HEADER=VALUE',
    description:
      'A header sent to upstream NAME besides the credential read from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY... docs/record-replay.md), e.g. openai:OpenAI-Organization=org-1. Repeatable.',
    default: 'none',
  },
  {
    name: 'timeout-ms',
    type: 'string',
    value: 'MS',
    description: 'How long one request may take, its whole answer included; a step with no answer by then could not be checked.',
    default: '60000',
  },
  { name: 'json', type: 'boolean', description: 'Print the results as one JSON object instead of lines.', default: 'text' },
  HELP_FLAG,
];

interface Command {
  name: string;
  summary: string;
  usage: string;
  flags: readonly Flag[];
  more?: string[];
}

export const COMMANDS: readonly Command[] = [
  {
    name: 'serve',
    summary: 'Start the server, with fixture files loaded into its default session.',
    usage: 'understudy serve [--fixtures FILE|DIR...] [flags]',
    flags: SERVE_FLAGS,
    more: [
      'Ctrl-C or SIGTERM stops it; answers in flight get five seconds to finish.',
      'Scripts and faults: docs/fixtures.md, docs/timing-and-faults.md. Control API: docs/control-api.md.',
    ],
  },
  {
    name: 'validate',
    summary: 'Check fixture files; print "ok" or file:line:col  /path  what was expected, for each problem.',
    usage: 'understudy validate FILE|DIR... [flags]',
    flags: VALIDATE_FLAGS,
    more: [
      'A directory stands for every .yaml, .yml and .json file under it, subdirectories included (one with none is a problem).',
      'Exit code: 0 when every file is valid, 1 when one has a problem, 2 for bad usage.',
    ],
  },
  {
    name: 'drift',
    summary: "Re-send recorded requests to the real providers; report per step whether the answer's shape changed.",
    usage: 'understudy drift DIR|FILE... --upstream NAME=URL [--upstream NAME=URL...] [flags]',
    flags: DRIFT_FLAGS,
    more: [
      'Reads every .yaml, .yml and .json file under DIR (recursively), or the FILE given, and re-sends each step that has a recorded member.',
      'Drift: a field added, removed or retyped, the stream event types, the finish reason, the tools called, the status or the content type. Values (text, ids, counts) never count.',
      'Could not check, never drift: no --upstream for the provider, a network error or timeout, 401/403/408/429 or 5xx, Bedrock without a bearer token nor AWS credentials to sign with, an unreadable file.',
      'Bedrock: AWS_BEARER_TOKEN_BEDROCK is sent as a bearer token; without it each request is signed with SigV4 by the AWS credential chain (AWS_PROFILE, AWS_ACCESS_KEY_ID…), for the region the upstream host names, else AWS_REGION.',
      'Exit code: 0 when nothing drifted (some steps may not have been checked: the summary says), 1 when a step drifted, 2 for bad usage.',
      'Docs: docs/record-replay.md "Checking for drift".',
    ],
  },
  {
    name: 'help',
    summary: 'Describe a command: understudy help serve.',
    usage: 'understudy help [COMMAND]',
    flags: [],
  },
];

export const COMMAND_NAMES = COMMANDS.map((c) => c.name);

export function commandHelp(name: string): string {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new Error(`no command ${name}`);
  const lines = [`usage: ${command.usage}`, '', command.summary];
  if (command.flags.length) lines.push('', 'flags:', ...describeFlags(command.flags));
  if (command.more) lines.push('', ...command.more);
  return lines.join('\n');
}

export function generalHelp(version: string): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `understudy ${version}: a scripted stand-in for LLM provider HTTP APIs, for tests.`,
    '',
    'usage: understudy COMMAND [flags]',
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'understudy COMMAND --help (or understudy help COMMAND) describes its flags.',
    'understudy --version prints the version.',
  ].join('\n');
}
