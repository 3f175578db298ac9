// `understudy serve`: the server with fixture files (or every fixture file under a directory)
// loaded into its default session.

import { formatProblems, loadFixtureFile } from '../engine/fixture-file.js';
import { fixtureFilesOf } from '../engine/fixture-paths.js';
import type { ChaosOptions } from '../core/model.js';
import { UnderstudyServer, type ServerOptions } from '../server/understudy-server.js';
import { bannerLines, type LoadedFixture } from './banner.js';
import { scenarioClashes } from './scenario-clashes.js';

export interface ServeOptions {
  host: string;
  port: number;
  fixtures: string[];
  strict: boolean;
  controlToken?: string;
  corsOrigins?: string[];
  allowedHosts?: string[];
  chaos?: ChaosOptions;
  /** In a worker of `--workers N`. */
  cluster?: { index: number; workers: number };
  maxReplyBytes?: number;
  maxStreamChunks?: number;
  /** The request log (off when absent). */
  requestLog?: ServerOptions['requestLog'];
  /** Record mode (--record DIR, docs/record-replay.md). */
  record?: ServerOptions['record'];
  /** --replay DIR: each session starts with its recordings. */
  replay?: string;
  /** Off with --no-metrics. */
  metrics?: boolean;
  /** --journal-bodies. */
  journalBodies?: boolean;
}

/** Starts the server and prints the banner on `out`; problems go to `err` and give undefined. */
export async function runServe(
  options: ServeOptions,
  out: (line: string) => void,
  err: (line: string) => void = out,
): Promise<UnderstudyServer | undefined> {
  const paths = await fixtureFilesOf(options.fixtures);
  if (paths.problems.length > 0) {
    err(formatProblems(paths.problems));
    return undefined;
  }
  const loaded: LoadedFixture[] = [];
  for (const file of paths.files) {
    const result = await loadFixtureFile(file, { replyBytes: options.maxReplyBytes, streamChunks: options.maxStreamChunks });
    if (!result.ok) {
      err(formatProblems(result.problems));
      return undefined;
    }
    loaded.push({ file, fixture: result.fixture });
  }
  const [clash] = scenarioClashes(loaded);
  if (clash) {
    err(
      clash.first === clash.second
        ? `understudy: ${clash.first} is given twice; each fixture file loads once`
        : `understudy: scenario "${clash.name}" is defined in both ${clash.first} and ${clash.second}; scenario names must be unique across --fixtures files and directories (the later one would replace the earlier)`,
    );
    return undefined;
  }
  let server: UnderstudyServer;
  try {
    server = new UnderstudyServer({
      host: options.host,
      port: options.port,
      fixtures: loaded.map((l) => l.fixture),
      defaultSession: { fallback: 'auto', chaos: options.chaos },
      controlToken: options.controlToken,
      corsOrigins: options.corsOrigins,
      allowedHosts: options.allowedHosts,
      cluster: options.cluster,
      maxReplyBytes: options.maxReplyBytes,
      maxStreamChunks: options.maxStreamChunks,
      requestLog: options.requestLog,
      record: options.record,
      replay: options.replay,
      metrics: options.metrics,
      journalBodies: options.journalBodies,
    });
  } catch (error) {
    err(`understudy: ${(error as Error).message}`);
    return undefined;
  }
  const session = server.registry.defaultSession;
  // The flag is the user's word for this run, so it wins over what a file says.
  if (options.strict) session.fallback = 'strict';
  let url: string;
  try {
    ({ url } = await server.listen());
  } catch (error) {
    err(`understudy: ${(error as Error).message}`);
    return undefined;
  }
  // Files load in order, so the last one that sets a session option is the one in force.
  const lastSetting = (key: 'fallback' | 'pacing') => [...loaded].reverse().find((l) => l.fixture.session?.[key] !== undefined)?.file;
  const lines = bannerLines({
    url,
    fixtures: loaded,
    // Read back from the session, not from the options: the banner says what is in force.
    fallback: { mode: session.fallback, setBy: options.strict ? '--strict' : (lastSetting('fallback') ?? '') },
    pacing: session.pacing && { pacing: session.pacing, setBy: lastSetting('pacing') ?? 'the server options' },
    chaos: session.chaos,
    workers: options.cluster?.workers,
    record: options.record,
    replay: options.replay,
    metrics: options.metrics !== false,
    controlToken: options.controlToken !== undefined,
    providerUrl: (provider) => server.providerUrl(provider),
  });
  for (const line of lines) out(line);
  return server;
}
