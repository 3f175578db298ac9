// A `fetch` for an SDK client that keeps a copy of every response body it receives, so a test can
// hold the bytes Understudy sent against a description while the SDK still reads the original
// (its parsing and stream helpers judge the same answer).

export interface RecordedResponse {
  url: string;
  status: number;
  contentType: string;
  body: string;
  /** The body the client sent, when it sent one as text (the SDKs send JSON as a string). */
  requestBody: string | undefined;
  /** False when the client stopped reading before the end (an SDK that aborts its stream on an
   * error event): `body` is what had arrived, its last event possibly cut. */
  complete: boolean;
}

export interface RecordingFetch {
  fetch: typeof fetch;
  /** Every response so far, once its body has been read to the end (or the client gave up on it). */
  responses(): Promise<RecordedResponse[]>;
  clear(): void;
}

async function readAll(response: Response): Promise<{ body: string; complete: boolean }> {
  if (!response.body) return { body: '', complete: true };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let body = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { body: body + decoder.decode(), complete: true };
      body += decoder.decode(value, { stream: true });
    }
  } catch {
    return { body, complete: false };
  }
}

/** `base` is the fetch that does the work: the global one as it is now, so that this one can
 * stand in for it (an SDK that takes no fetch option calls the global one). */
export function recordingFetch(base: typeof fetch = globalThis.fetch): RecordingFetch {
  let pending: Promise<RecordedResponse>[] = [];
  return {
    fetch: (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
      const response = await base(input, init);
      const copy = response.clone();
      pending.push(
        readAll(copy).then(({ body, complete }) => ({
          url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
          status: response.status,
          contentType: response.headers.get('content-type') ?? '',
          body,
          requestBody: typeof init?.body === 'string' ? init.body : undefined,
          complete,
        })),
      );
      return response;
    }) as typeof fetch,
    responses: () => Promise.all(pending),
    clear() {
      pending = [];
    },
  };
}

export interface SseEvent {
  event: string | undefined;
  data: string;
}

/** The whole events of a recorded stream: all of them, or those before a cut the client made. */
export function recordedEvents(recorded: RecordedResponse): SseEvent[] {
  return sseEvents(recorded.complete ? recorded.body : recorded.body.slice(0, recorded.body.lastIndexOf('\n\n') + 2));
}

/** The events of a text/event-stream body, in order. */
export function sseEvents(body: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of body.split(/\r?\n\r?\n/)) {
    if (block.trim() === '') continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    events.push({ event, data: data.join('\n') });
  }
  return events;
}
