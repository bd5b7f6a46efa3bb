import type { RequestOptions } from '../core/request.js';
import { APIResource } from '../core/resource.js';
import type { Uploadable } from '../core/uploads.js';
import { lazy } from '../internal/lazy.js';
import type { ImageSize } from './image-sizes.js';

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
  async generate(body: ImageGenerateParams, options?: RequestOptions): Promise<ImagesResponse> {
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
  async edit(body: ImageEditParams, options?: RequestOptions): Promise<ImagesResponse> {
    await this._check(loadEditSchema, body);
    const { image, mask, ...fields } = body;
    const { encodeMultipart, resolveFiles } = await import('../core/multipart.js');
    const form = encodeMultipart({ ...fields, ...(await resolveFiles({ image, mask })) });
    return this._request<ImagesResponse>({ method: 'POST', path: 'images/edits', form }, options);
  }
}

/** POST /images/generations parameters. */
export interface ImageGenerateParams {
  model: string;
  prompt: string;
  /** How many images. Integer >= 1. @default 1 */
  n?: number | null;
  size?: ImageSize | null;
  /** @default 'standard' */
  quality?: 'standard' | 'hd' | null;
  /** `url` (a link that expires) or `b64_json` (the image bytes, base64). @default 'url' */
  response_format?: 'url' | 'b64_json' | null;
  style?: 'vivid' | 'natural' | null;
  user?: string;
}

/** POST /images/edits parameters (sent as multipart/form-data). */
export interface ImageEditParams {
  model: string;
  /** The image to edit. */
  image: Uploadable;
  /** What to change. */
  prompt: string;
  /** Transparent areas mark where to edit. */
  mask?: Uploadable;
  n?: number | null;
  size?: ImageSize | null;
  response_format?: 'url' | 'b64_json' | null;
  user?: string;
}

/** One generated image: `url` or `b64_json`, depending on `response_format`. */
export interface Image {
  url?: string;
  b64_json?: string;
  revised_prompt?: string;
}

/** Result of image generation and editing. */
export interface ImagesResponse {
  created: number;
  data: Image[];
}
