import type { IncomingMessage } from 'node:http';

export const DEFAULT_BODY_LIMIT = 16 * 1024 * 1024;

export type BodyResult = { ok: true; text: string } | { ok: false; reason: 'too_large' | 'aborted' | 'invalid_utf8' };

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Reads the whole body up to `limit` bytes, as strict UTF-8. */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      resolve({ ok: false, reason: 'too_large' });
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
        resolve({ ok: false, reason: 'too_large' });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      const buffer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
      try {
        resolve({ ok: true, text: decoder.decode(buffer) });
      } catch {
        resolve({ ok: false, reason: 'invalid_utf8' });
      }
    });
    req.on('error', () => {
      if (done) return;
      done = true;
      resolve({ ok: false, reason: 'aborted' });
    });
  });
}
