// The image files a fixture file's `images` entries name (`file:`, relative to the fixture file),
// read when the fixture file is loaded and put in the entry as `b64`, so that what a session
// holds (and what the control API and `--workers` pass on) is the bytes themselves. A file that
// cannot be read, or holds no PNG, JPEG or WebP image, is a problem naming the entry's path.

import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { imageKindOf } from '../core/scripted-image.js';
import type { FixtureProblem, FixtureResult } from './fixture-file.js';

/** Most bytes one image file may hold. */
export const MAX_IMAGE_FILE_BYTES = 16 * 1024 * 1024;

export async function withImageFiles(result: FixtureResult, fixturePath: string): Promise<FixtureResult> {
  if (!result.ok || !result.fixture.images?.some((entry) => entry.file !== undefined)) return result;
  const problems: FixtureProblem[] = [];
  const images = await Promise.all(
    result.fixture.images.map(async (entry, i) => {
      if (entry.file === undefined) return entry;
      const path = resolve(dirname(fixturePath), entry.file);
      const at = `/images/${i}/file`;
      let bytes: Buffer;
      try {
        bytes = await readFile(path);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const reason =
          code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : String((error as Error).message ?? error);
        problems.push({ file: fixturePath, path: at, message: `expected a readable image file at ${path}; ${reason}` });
        return entry;
      }
      if (bytes.length > MAX_IMAGE_FILE_BYTES)
        problems.push({
          file: fixturePath,
          path: at,
          message: `expected an image file of at most ${MAX_IMAGE_FILE_BYTES} bytes; ${path} has ${bytes.length}`,
        });
      else if (!imageKindOf(bytes))
        problems.push({ file: fixturePath, path: at, message: `expected a PNG, JPEG or WebP image; ${path} holds none of those` });
      const { file: _file, ...rest } = entry;
      void _file;
      return { ...rest, b64: bytes.toString('base64') };
    }),
  );
  if (problems.length) return { ok: false, problems };
  return { ok: true, fixture: { ...result.fixture, images } };
}
