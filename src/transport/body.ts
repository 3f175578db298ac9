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
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  req.on('data', (chunk: Buffer) => {
    if (done) return;
    size += chunk.length;
    if (size > limit) {
      done = true;
      chunks.length = 0;
      finish({ ok: false, reason: 'too_large' });
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (done) return;
    done = true;
    const buffer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
    // The listeners live as long as the request (a paced stream: seconds); the bytes need not.
    chunks.length = 0;
    let text: string;
    try {
      text = decoder.decode(buffer);
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
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}
