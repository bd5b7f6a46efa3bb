import type { Uploadable } from '../../core/uploads/uploads.js';
import type { ImageModel, ImageSizeFor } from './sizes.js';

/**
 * POST /images/generations parameters. For the documented models `size` is typed to their
 * sizes (`dall-e-3`: 1024x1024, 1792x1024, 1024x1792); other model ids take any `<w>x<h>`.
 */
export interface ImageGenerateParams<M extends ImageModel = ImageModel> {
  model: M;
  prompt: string;
  /** How many images. Integer >= 1. @default 1 */
  n?: number | null | undefined;
  size?: ImageSizeFor<M> | null | undefined;
  /** @default 'standard' */
  quality?: 'standard' | 'hd' | null | undefined;
  /** `url` (a link that expires) or `b64_json` (the image bytes, base64). @default 'url' */
  response_format?: 'url' | 'b64_json' | null | undefined;
  style?: 'vivid' | 'natural' | null | undefined;
  user?: string | undefined;
}

/** POST /images/edits parameters (sent as multipart/form-data). */
export interface ImageEditParams<M extends ImageModel = ImageModel> {
  model: M;
  /** The image to edit. */
  image: Uploadable;
  /** What to change. */
  prompt: string;
  /** Transparent areas mark where to edit. */
  mask?: Uploadable | undefined;
  n?: number | null | undefined;
  size?: ImageSizeFor<M> | null | undefined;
  response_format?: 'url' | 'b64_json' | null | undefined;
  user?: string | undefined;
}

/** One generated image: `url` or `b64_json`, depending on `response_format`. */
export interface Image {
  url?: string | undefined;
  b64_json?: string | undefined;
  revised_prompt?: string | undefined;
}

/** Result of image generation and editing. */
export interface ImagesResponse {
  created: number;
  data: Image[];
}
