// OpenAI's image models in three families, and what each takes, from OpenAI's published API
// description and its SDKs' documentation: the sizes, qualities, image counts and prompt lengths,
// and which request members are the GPT image models' own (docs/images.md).

export type ImageFamily = 'dall-e-2' | 'dall-e-3' | 'gpt-image';

export const GPT_IMAGE_SIZES = ['1024x1024', '1536x1024', '1024x1536', 'auto'] as const;

export interface FamilyRules {
  /** The sizes taken; undefined for any WIDTHxHEIGHT within the family's limits (gpt-image-2). */
  sizes: readonly string[] | undefined;
  qualities: readonly string[];
  maxImages: number;
  maxPrompt: number;
  /** Whether `response_format` is taken (DALL·E) or refused (GPT image models answer base64). */
  responseFormat: boolean;
  /** Whether the GPT image members (output_format, background, stream …) are taken. */
  gptMembers: boolean;
}

/** The members only the GPT image models take. */
export const GPT_IMAGE_MEMBERS = ['output_format', 'output_compression', 'background', 'moderation', 'stream', 'partial_images'] as const;

/** The model a family's request names, or the family a name belongs to; undefined for a name no
 * family has. */
export function familyOf(model: string): ImageFamily | undefined {
  if (model === 'dall-e-2') return 'dall-e-2';
  if (model === 'dall-e-3') return 'dall-e-3';
  if (model.startsWith('gpt-image-') || model.startsWith('chatgpt-image-')) return 'gpt-image';
  return undefined;
}

/** gpt-image-2 (and its snapshots) take any size within its limits; the others a fixed list. */
export function takesAnySize(model: string): boolean {
  return /^gpt-image-2(?:[.-]|$)/.test(model);
}

/** Qualities beyond `high` (openai 7's `xhigh`, `max`) are for the GPT Image 2.5 and 2.6 models. */
function gptQualities(model: string): readonly string[] {
  return /^gpt-image-2\.[5-9]/.test(model) ? ['low', 'medium', 'high', 'xhigh', 'max', 'auto'] : ['low', 'medium', 'high', 'auto'];
}

export function rulesOf(family: ImageFamily, model: string, operation: 'generate' | 'edit'): FamilyRules {
  switch (family) {
    case 'dall-e-2':
      return {
        sizes: ['256x256', '512x512', '1024x1024'],
        qualities: ['standard', 'auto'],
        maxImages: 10,
        maxPrompt: 1000,
        responseFormat: true,
        gptMembers: false,
      };
    case 'dall-e-3':
      return {
        sizes: ['1024x1024', '1792x1024', '1024x1792'],
        qualities: ['standard', 'hd', 'auto'],
        maxImages: 1,
        maxPrompt: 4000,
        responseFormat: true,
        gptMembers: false,
      };
    default:
      return {
        sizes: takesAnySize(model) ? undefined : GPT_IMAGE_SIZES,
        qualities: operation === 'edit' ? [...gptQualities(model), 'standard'] : gptQualities(model),
        maxImages: 10,
        maxPrompt: 32000,
        responseFormat: false,
        gptMembers: true,
      };
  }
}

/** A WIDTHxHEIGHT gpt-image-2 takes: both edges divisible by 16, the long edge at most 3840 and
 * the short at most 2160, the aspect ratio between 1:3 and 3:1. The reason it does not, or
 * undefined. */
export function freeSizeProblem(width: number, height: number): string | undefined {
  if (width % 16 !== 0 || height % 16 !== 0) return 'width and height must both be divisible by 16';
  if (Math.max(width, height) > 3840 || Math.min(width, height) > 2160) return 'the largest size is 3840x2160';
  if (Math.max(width, height) > 3 * Math.min(width, height)) return 'the aspect ratio must be between 1:3 and 3:1';
  return undefined;
}

/** The output tokens of one image by size and quality: OpenAI's published counts for the
 * standard sizes (gpt-image-1), by area for the others. */
export function outputTokensOf(width: number, height: number, quality: string): number {
  const square = quality === 'low' ? 272 : quality === 'high' || quality === 'xhigh' || quality === 'max' ? 4160 : 1056;
  if (width === height) return Math.round((square * width * height) / (1024 * 1024));
  const tall = { 272: 408, 1056: 1584, 4160: 6240 }[square] as number;
  const wide = { 272: 400, 1056: 1568, 4160: 6208 }[square] as number;
  const base = height > width ? tall : wide;
  return Math.round((base * width * height) / (1024 * 1536));
}
