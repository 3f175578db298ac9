// Output into a pipe that closed (`understudy serve | head -1`): Node ignores SIGPIPE, so the next
// write fails with EPIPE, which would be an unhandled 'error' event and a stack trace. Instead
// further output is dropped: a command that ends by itself (validate) ends with its own exit code,
// and serve closes as if stopped (whenPipeCloses).

let onClosed: () => void = () => {};
let closed = false;

/** Makes a closed stdout or stderr drop further output and run the closed-pipe action once, instead of throwing. */
export function quietOnClosedPipe(): void {
  const handler = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    if (closed) return;
    closed = true;
    onClosed();
  };
  process.stdout.on('error', handler);
  process.stderr.on('error', handler);
}

/** What a closed pipe does besides dropping output (serve: close the server and exit 0). */
export function whenPipeCloses(action: () => void): void {
  onClosed = action;
  // It may have closed while the banner was written, before there was a server to stop.
  if (closed) action();
}

/** Writes a line unless stdout already closed. */
export function printLine(line: string): void {
  if (closed || process.stdout.destroyed) return;
  process.stdout.write(`${line}\n`);
}
