// What a generateContent request asks of image output: `responseModalities` with IMAGE (Gemini's
// image models), at `imageConfig.aspectRatio`'s size. The pictures themselves are the reply's
// (Reply.images, or the default picture in zero-config), encoded as inlineData parts.

import type { ImageOutput } from '../../core/model.js';
import { isObject } from '../wire-kit/values.js';
import { field, unset } from './proto-fields.js';
import { fieldRule } from './wording.js';

/** The pixel size of each aspect ratio Gemini's image models take, as Google documents their 1K
 * outputs. */
const SIZES: Record<string, [number, number]> = {
  '1:1': [1024, 1024],
  '2:3': [832, 1248],
  '3:2': [1248, 832],
  '3:4': [864, 1184],
  '4:3': [1184, 864],
  '4:5': [896, 1152],
  '5:4': [1152, 896],
  '9:16': [768, 1344],
  '16:9': [1344, 768],
  '21:9': [1536, 672],
};

/** The image output a request asks for, or undefined when its modalities leave IMAGE out. The
 * modalities and imageConfig were type-checked before. */
export function imageOutputOf(modalities: readonly string[], imageConfig: unknown, at: string): ImageOutput | undefined {
  const ratio = isObject(imageConfig) ? field(imageConfig, 'aspectRatio') : undefined;
  if (typeof ratio === 'string' && SIZES[ratio] === undefined) {
    fieldRule(
      `${at}.image_config.aspect_ratio`,
      `aspect ratio ${JSON.stringify(ratio)} is not supported; use one of ${Object.keys(SIZES).join(', ')}`,
    );
  }
  if (!modalities.includes('IMAGE')) return undefined;
  const [width, height] = unset(ratio) ? SIZES['1:1'] : SIZES[ratio as string];
  return { width, height, text: modalities.includes('TEXT') };
}
