// The picture an image request gets when its fixture scripts no bytes: a PNG of the requested
// size whose two colours come from the request's seed (its model, operation and prompt) and the
// image's place in the answer, so different prompts — and the images of one answer — differ, and
// the same request gets the same bytes in every run.

import { fnv1a } from '../../core/fnv.js';
import { encodePng, type Rgb } from './png.js';

function rgbOf(hash: number): Rgb {
  return [(hash >>> 16) & 0xff, (hash >>> 8) & 0xff, hash & 0xff];
}

export interface PictureAsk {
  seed: string;
  index: number;
  width: number;
  height: number;
  transparent: boolean;
  /** A partial image of a stream: the background alone, the square not drawn yet. */
  partial?: boolean;
}

export function defaultPicture(ask: PictureAsk): Buffer {
  const base = fnv1a(ask.seed);
  const background = rgbOf(fnv1a(`background ${ask.index}`, base));
  const square = ask.partial ? background : rgbOf(fnv1a(`square ${ask.index}`, base));
  return encodePng({ width: ask.width, height: ask.height, background, square, transparent: ask.transparent });
}
