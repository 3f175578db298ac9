// The rules of the fixture's `images` entries that one field cannot state alone (a rule of
// fixture-rules.ts's kind, listed there by name for the format's plan).

import { imageKindOf } from '../core/scripted-image.js';
import { has, type Obj, type Path, type RuleContext } from './fixture-words.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** An entry answers an error or an image, not both; scripted bytes are base64 of a PNG, JPEG or
 * WebP image. */
export function scriptedImageRule(entry: Obj, path: Path, ctx: RuleContext): void {
  if (has(entry, 'b64') && has(entry, 'file'))
    ctx.report([...path, 'file'], 'expected either "b64" or "file" in a scripted image, not both; found both');
  if (has(entry, 'error')) {
    for (const key of ['b64', 'file', 'revisedPrompt'])
      if (has(entry, key)) ctx.report([...path, key], `expected either "error" or "${key}" in a scripted image, not both; found both`);
  }
  imageBytesRule(entry, path, ctx);
}

/** A reply's image (`reply.images[i]`): its `b64`, when given, is base64 of a PNG, JPEG or WebP image. */
export function replyImageRule(entry: Obj, path: Path, ctx: RuleContext): void {
  imageBytesRule(entry, path, ctx);
}

function imageBytesRule(entry: Obj, path: Path, ctx: RuleContext): void {
  const b64 = entry.b64;
  if (typeof b64 !== 'string') return;
  const compact = b64.replace(/\s+/g, '');
  if (compact === '' || compact.length % 4 === 1 || !BASE64.test(compact)) {
    ctx.report([...path, 'b64'], 'expected base64 image bytes (A-Z, a-z, 0-9, +, / and = padding); found text that is not base64');
    return;
  }
  if (!imageKindOf(Buffer.from(compact, 'base64')))
    ctx.report([...path, 'b64'], 'expected the base64 of a PNG, JPEG or WebP image; found bytes of none of those');
}
