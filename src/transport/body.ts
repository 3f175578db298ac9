import type { IncomingMessage } from 'node:http';

export const DEFAULT_BODY_LIMIT = 16 * 1024 * 1024;

export type BodyResult = { ok: true; text: string } | { ok: false; reason: 'too_large' | 'aborted' | 'invalid_utf8' };

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Reads the whole body up to `limit` bytes, as strict UTF-8. */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => readBodyThen(req, limit, resolve));
}

/** readBody with a callback: `finish` runs once, in the stream's own 'end' (or failure) event. */
export function readBodyThen(req: IncomingMessage, limit: number, finish: (result: BodyResult) => void): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    finish({ ok: false, reason: 'too_large' });
    return;
  }
  let first: Buffer | undefined;
  // A body of more than one chunk is decoded chunk by chunk as it arrives, so that its last byte
  // does not start one long decode.
  let streaming: TextDecoder | undefined;
  let parts: string[] | undefined;
  let invalid = false;
  let size = 0;
  let done = false;
  const decodePart = (chunk: Buffer) => {
    if (invalid) return;
    try {
      (parts as string[]).push((streaming as TextDecoder).decode(chunk, { stream: true }));
    } catch {
      invalid = true;
      parts = undefined;
    }
  };
  req.on('data', (chunk: Buffer) => {
    if (done) return;
    size += chunk.length;
    if (size > limit) {
      done = true;
      first = undefined;
      parts = undefined;
      finish({ ok: false, reason: 'too_large' });
      return;
    }
    if (first === undefined && !streaming) {
      first = chunk;
      return;
    }
    if (!streaming) {
      streaming = new TextDecoder('utf-8', { fatal: true });
      parts = [];
      decodePart(first as Buffer);
      first = undefined;
    }
    decodePart(chunk);
  });
  req.on('end', () => {
    if (done) return;
    done = true;
    // node:http2 ends a request whose stream its client reset part-way through the body as if it
    // were whole ('aborted' comes later); node:http never ends one short of its Content-Length.
    if (size < declared) {
      finish({ ok: false, reason: 'aborted' });
      return;
    }
    let text: string;
    try {
      if (streaming) {
        if (invalid) throw new Error('invalid UTF-8');
        (parts as string[]).push(streaming.decode());
        text = (parts as string[]).join('');
        // The listeners live as long as the request (a paced stream: seconds); the pieces need not.
        parts = undefined;
      } else {
        text = first ? decoder.decode(first) : '';
        first = undefined;
      }
    } catch {
      finish({ ok: false, reason: 'invalid_utf8' });
      return;
    }
    finish({ ok: true, text });
  });
  req.on('error', () => {
    if (done) return;
    done = true;
    finish({ ok: false, reason: 'aborted' });
  });
}

/** Deepest nesting of arrays and objects a request body may have: deeper values would exhaust the
 * stack in the recursive code after parsing (copies, token counts, schema compilation). */
export const MAX_JSON_DEPTH = 256;

/** True when the (valid) JSON text nests arrays and objects deeper than `max`; strings are skipped. */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // To the closing quote: the next quote not escaped by an odd run of backslashes before it
      // (indexOf is far quicker than a loop over a long string's characters).
      for (;;) {
        const quote = text.indexOf('"', i + 1);
        if (quote < 0) return false;
        let slashes = 0;
        while (text.charCodeAt(quote - 1 - slashes) === 0x5c) slashes++;
        i = quote;
        if (slashes % 2 === 0) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

export type BytesResult = { ok: true; bytes: Buffer } | { ok: false; reason: 'too_large' | 'aborted' };

/** Reads the whole body up to `limit` bytes as raw bytes (multipart uploads: audio, images). */
export function readBytesThen(req: IncomingMessage, limit: number, finish: (result: BytesResult) => void): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    finish({ ok: false, reason: 'too_large' });
    return;
  }
  let chunks: Buffer[] | undefined = [];
  let size = 0;
  let done = false;
  req.on('data', (chunk: Buffer) => {
    if (done) return;
    size += chunk.length;
    if (size > limit) {
      done = true;
      chunks = undefined;
      finish({ ok: false, reason: 'too_large' });
      return;
    }
    (chunks as Buffer[]).push(chunk);
  });
  req.on('end', () => {
    if (done) return;
    done = true;
    if (size < declared) {
      finish({ ok: false, reason: 'aborted' });
      return;
    }
    const bytes = Buffer.concat(chunks as Buffer[], size);
    chunks = undefined;
    finish({ ok: true, bytes });
  });
  req.on('error', () => {
    if (done) return;
    done = true;
    finish({ ok: false, reason: 'aborted' });
  });
}
