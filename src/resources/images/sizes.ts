import type { ModelId } from '../../core/model-catalog.js';

/** `<width>x<height>`, e.g. `1024x1024`. */
export type ImageSize = `${number}x${number}`;

/**
 * Allowed sizes per known image model, from the gateway's documentation. Models not listed
 * here are passed through unchecked.
 */
export const imageSizesByModel = {
  'dall-e-3': ['1024x1024', '1792x1024', '1024x1792'], // the latest, highest-quality model
  'dall-e-2': ['256x256', '512x512', '1024x1024'], // the model with edits and variants
  'gpt-image-1': ['1024x1024', '1536x1024', '1024x1536'], // the third documented kind
} as const satisfies Record<string, readonly ImageSize[]>;

/** The image models whose sizes the gateway documents. */
export type KnownImageModel = keyof typeof imageSizesByModel;

/**
 * An image model id: the documented ones autocomplete, as do the ids of a generated
 * `ModelCatalog`; any other id is accepted as it is.
 */
export type ImageModel = KnownImageModel | ModelId;

/**
 * The sizes `M` accepts: its documented sizes for a known model (so
 * `{ model: 'dall-e-3', size: '512x512' }` does not compile), any `<w>x<h>` otherwise.
 */
export type ImageSizeFor<M extends string> = M extends KnownImageModel ? (typeof imageSizesByModel)[M][number] : ImageSize;
