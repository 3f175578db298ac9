// The fixture's `images` list, described as the rest of the format is (fixture-schema.ts composes
// it into a fixture): the image a prompt gets — scripted bytes, a revised prompt, or a provider
// error — and how its answer goes out (a delay, a fault). docs/images.md says what each field does.

import type * as Z from 'zod';
import { fixtureKit, rule } from './fixture-kit.js';
import { replyImageRule, scriptedImageRule } from './fixture-rules-images.js';

/** The pieces of the format an entry shares with the rest of it. */
interface SharedParts<M extends Z.ZodType, E extends Z.ZodType, F extends Z.ZodType> {
  textMatchOrString: M;
  error: E;
  fault: F;
}

export function describeImageParts<M extends Z.ZodType, E extends Z.ZodType, F extends Z.ZodType>(
  z: typeof Z,
  parts: SharedParts<M, E, F>,
) {
  const { text, nonNegative, object } = fixtureKit(z);
  const described = <T extends Z.ZodType>(schema: T, description: string): T => schema.meta({ description });

  const scriptedImage = rule(
    object(
      'a scripted image',
      {
        prompt: described(parts.textMatchOrString, 'The prompt this entry answers: an exact string, or a text match.'),
        model: described(
          text('a model name (a string)'),
          'Only for requests naming this model (an Azure deployment counts as its model).',
        ).optional(),
        b64: described(
          text('base64 image bytes (a string)'),
          'The image answered, as base64 (PNG, JPEG or WebP bytes; every image of the answer gets these bytes). Without it, Understudy draws its default PNG of the requested size.',
        ).optional(),
        file: described(
          text('a file path (a string)'),
          'Instead of `b64`: a file holding the image (PNG, JPEG or WebP), relative to the fixture file; read when the fixture file is loaded (`loadFixtureFile`, `understudy serve --fixtures`, `understudy validate`).',
        ).optional(),
        revisedPrompt: described(
          text('a revised prompt (a string)'),
          '`revised_prompt` of each image (dall-e-3 answers carry one; it defaults to the prompt).',
        ).optional(),
        error: described(parts.error, "Instead of an image: the provider error the request gets (in the route's error shape).").optional(),
        delayMs: described(nonNegative('a delay in milliseconds (a number ≥ 0)'), 'Milliseconds to wait before answering.').optional(),
        fault: described(parts.fault, 'A failure part-way through the answer (its JSON body or its stream of partial images).').optional(),
      },
      {
        id: 'scriptedImage',
        description: 'What an image request gets for a prompt that matches: the default picture, scripted bytes, or an error.',
        allOf: [{ not: { required: ['error', 'b64'] } }, { not: { required: ['error', 'file'] } }, { not: { required: ['b64', 'file'] } }],
      },
    ),
    scriptedImageRule,
  );

  return { scriptedImage };
}

/** An image of a chat reply (`reply.images[i]`, Gemini's image output parts). */
export function describeReplyImage(z: typeof Z) {
  const { text, object } = fixtureKit(z);
  return rule(
    object(
      'a reply image',
      {
        b64: text('base64 image bytes (a string)')
          .meta({
            description:
              "The image, as base64 (PNG, JPEG or WebP bytes). Without it, the reply carries Understudy's default PNG, drawn from the prompt at the requested aspect ratio.",
          })
          .optional(),
      },
      {
        id: 'replyImage',
        description:
          'An image the reply carries beside its text (Gemini image output, for a request whose responseModalities ask for IMAGE; docs/images.md).',
      },
    ),
    replyImageRule,
  );
}
