// What a fixture scripts for an image prompt (its `images` list), in the form dialects read it:
// the engine compiles the entries (engine/scripted-images.ts), the image routes answer from them.

import type { NeutralError } from './errors.js';
import type { StreamFault } from './model.js';

export type ImageKind = 'png' | 'jpeg' | 'webp';

export interface ScriptedImage {
  /** The image's bytes and their kind, when the entry scripts bytes (else the default picture). */
  bytes?: { data: Buffer; kind: ImageKind };
  revisedPrompt?: string;
  /** The entry's `file`, when the entry came to the session unread (not from a fixture file). */
  unreadFile?: string;
  /** The provider error answered instead of an image. */
  error?: NeutralError;
  delayMs?: number;
  fault?: StreamFault;
}

/** The kind of image bytes by their first bytes; undefined for none of PNG, JPEG, WebP. */
export function imageKindOf(bytes: Uint8Array): ImageKind | undefined {
  if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length >= 12 && tag(0) === 'RIFF' && tag(8) === 'WEBP') return 'webp';
  return undefined;
}
