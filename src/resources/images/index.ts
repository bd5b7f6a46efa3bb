import type { APIPromise } from '../../core/api-promise.js';
import { APIResource } from '../../core/resource.js';
import { claimStreams } from '../../core/uploads/file-streams.js';
import { editSchema, generateSchema } from './schema.js';
import type { ImageModel } from './sizes.js';
import type { DownloadOptions, RequestOptions } from '../../core/types.js';
import type { Image, ImageGenerateParams, ImageEditParams, ImagesResponse } from './types.js';

/** `client.images`: generation and editing. */
export class Images extends APIResource {
  /**
   * Generates images from a prompt. `size` is checked against the sizes the gateway
   * documents for known models (see `imageSizesByModel`); other models pass unchecked.
   * @example
   * const { data } = await client.images.generate({ model: 'dall-e-3', prompt: 'A lighthouse at dawn', size: '1792x1024' });
   * console.log(data[0]?.url);
   */
  generate<M extends ImageModel>(body: ImageGenerateParams<M>, options?: RequestOptions): APIPromise<ImagesResponse> {
    return this._post('images/generations', { body, schema: generateSchema }, options);
  }

  /**
   * Edits an image (multipart upload): `image` and the optional `mask` accept a Blob/File,
   * bytes, a fetch Response or an fs.ReadStream. The upload is built once, so retries and
   * failover resend it whole.
   * @example
   * const { data } = await client.images.edit({ model: 'dall-e-2', image: await toFile(bytes, 'cat.png'), prompt: 'Add a hat' });
   */
  edit<M extends ImageModel>(body: ImageEditParams<M>, options?: RequestOptions): APIPromise<ImagesResponse> {
    // At the call, before any await: a missing file's stream error would crash the process.
    claimStreams([body?.image, body?.mask]);
    const model = typeof body?.model === 'string' ? body.model : undefined;
    return this._request({ method: 'POST', path: 'images/edits', form: { fields: body, files: ['image', 'mask'] }, schema: editSchema, model }, options);
  }

  /**
   * Downloads an image the gateway answered with a URL (an `Image` of `data`, or its URL).
   * Resolves to a `Response` once the first bytes arrived (retried like any request until
   * then); its body reports progress and errors if cut short. The API key is sent only when
   * the URL's origin is one of the client's base URLs, redirects included: a CDN never gets it.
   * @example
   * const { data } = await client.images.generate({ model: 'dall-e-3', prompt: 'A lighthouse' });
   * const bytes = new Uint8Array(await (await client.images.download(data[0]!)).arrayBuffer());
   */
  download(imageOrURL: Image | string, options: DownloadOptions = {}): Promise<Response> {
    return this._download(typeof imageOrURL === 'string' ? imageOrURL : imageOrURL?.url, options);
  }
}
