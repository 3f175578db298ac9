// The page's calls to the control API. The control token comes from the page's URL fragment
// (#token=…, which never reaches a server or a log), is kept in sessionStorage for the tab, and is
// sent as x-understudy-control-token on every data call.

const TOKEN_KEY = 'understudy-control-token';
export const CONTROL = '/_understudy';

let token: string | null = null;

/** Takes a token from the URL fragment (then removes it from the address bar) or sessionStorage. */
export function loadToken(): void {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const fromUrl = fragment.get('token');
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    fragment.delete('token');
    const rest = fragment.toString();
    history.replaceState(null, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
  }
  token = sessionStorage.getItem(TOKEN_KEY);
}

export function setToken(value: string): void {
  token = value;
  sessionStorage.setItem(TOKEN_KEY, value);
}

export function hasToken(): boolean {
  return token !== null && token !== '';
}

function headers(): Record<string, string> {
  return token ? { 'x-understudy-control-token': token } : {};
}

/** A control API answer that was not a success. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function failure(response: Response): Promise<ApiError> {
  let code = 'http_error';
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string } };
    if (body.error?.code) code = body.error.code;
    if (body.error?.message) message = body.error.message;
  } catch {
    // not a JSON error body: the status line says it
  }
  return new ApiError(response.status, code, message);
}

/** GET a control path, parsed as JSON. */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(`${CONTROL}${path}`, { headers: headers(), signal, cache: 'no-store' });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

export interface FeedEvent {
  event: string;
  data: string;
  id?: string;
}

/** Reads server-sent events from a fetch response body (EventSource cannot send the token). */
export async function readEvents(path: string, signal: AbortSignal, onEvent: (event: FeedEvent) => void): Promise<void> {
  const response = await fetch(`${CONTROL}${path}`, { headers: { ...headers(), accept: 'text/event-stream' }, signal, cache: 'no-store' });
  if (!response.ok) throw await failure(response);
  if (!response.body) throw new ApiError(response.status, 'no_body', 'the event stream has no body');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = new EventParser(onEvent);
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    parser.push(value);
  }
}

/** The text/event-stream format, line by line: fields gather until a blank line ends the event. */
export class EventParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private id: string | undefined;

  constructor(private readonly onEvent: (event: FeedEvent) => void) {}

  push(text: string): void {
    this.buffer += text;
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      // A lone \r at the end may be the first half of \r\n: wait for more.
      if (!match || (match[0] === '\r' && match.index === this.buffer.length - 1)) return;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0) this.onEvent({ event: this.event || 'message', data: this.data.join('\n'), id: this.id });
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id') this.id = value;
  }
}
