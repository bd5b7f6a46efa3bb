import type { RequestOptions } from '../core/request.js';
import { APIResource } from '../core/resource.js';
import { claimStreams } from '../core/claim-streams.js';
import type { Uploadable } from '../core/uploads.js';
import { lazy } from '../internal/lazy.js';
import type { ImageModel, ImageSizeFor } from './image-sizes.js';

/** The schemas (and zod) load with the first call; see core/resource.ts. */
const loadGenerateSchema = lazy(() => import('./images.schema.js').then((m) => ({ check: m.checkGenerate })));
const loadEditSchema = lazy(() => import('./images.schema.js').then((m) => ({ check: m.checkEdit })));

/** `client.images`: generation and editing. */
export class Images extends APIResource {
  /**
   * Generates images from a prompt. `size` is checked against the sizes the gateway
   * documents for known models (see `imageSizesByModel`); other models pass unchecked.
   * @example
   * const { data } = await client.images.generate({ model: 'dall-e-3', prompt: 'A lighthouse at dawn', size: '1792x1024' });
   * console.log(data[0]?.url);
   */
  async generate<M extends ImageModel>(body: ImageGenerateParams<M>, options?: RequestOptions): Promise<ImagesResponse> {
    await this._check(loadGenerateSchema, body);
    return this._post<ImagesResponse>('images/generations', body, options);
  }

  /**
   * Edits an image (multipart upload): `image` and the optional `mask` accept a Blob/File,
   * bytes, a fetch Response or an fs.ReadStream. The upload is built once, so retries and
   * failover resend it whole.
   * @example
   * const { data } = await client.images.edit({ model: 'dall-e-2', image: await toFile(bytes, 'cat.png'), prompt: 'Add a hat' });
   */
  async edit<M extends ImageModel>(body: ImageEditParams<M>, options?: RequestOptions): Promise<ImagesResponse> {
    claimStreams([body?.image, body?.mask]);
    await this._check(loadEditSchema, body);
    const { image, mask, ...fields } = body;
    const { encodeMultipart, resolveFiles } = await import('../core/multipart.js');
    const form = encodeMultipart({ ...fields, ...(await resolveFiles({ image, mask })) });
    return this._request<ImagesResponse>({ method: 'POST', path: 'images/edits', form }, options);
  }
}

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
