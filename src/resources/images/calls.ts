import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/request.js';
import type { ResourceAPI } from '../../core/resource.js';
import { checkEdit, checkGenerate } from './schema.js';
import type { ImageEditParams, ImageGenerateParams, ImagesResponse } from './types.js';

// The image calls, loaded with the first one (with their schemas and zod).

/** POST images/generations; the size checked against the model's documented sizes. */
export function generate(api: ResourceAPI, body: ImageGenerateParams, options: RequestOptions | undefined): APIPromise<ImagesResponse> {
  return api.post('images/generations', body, { check: checkGenerate }, options);
}

/** POST images/edits as multipart, built once so every retry and fallback replays it whole. */
export function edit(api: ResourceAPI, body: ImageEditParams, options: RequestOptions | undefined): APIPromise<ImagesResponse> {
  // Files are read once per call: a stream or a Response can be read only once, and a
  // fallback model gets the same bytes.
  let files: Promise<Record<string, File | undefined>> | undefined;
  return api.call<ImagesResponse>(
    {
      model: body?.model,
      request: async (model?: string) => {
        checkEdit(body);
        const { image, mask, ...fields } = body;
        const { encodeMultipart, resolveFiles } = await import('../../core/multipart.js');
        files ??= resolveFiles({ image, mask });
        return { method: 'POST', path: 'images/edits', form: encodeMultipart({ ...fields, model: model ?? fields.model, ...(await files) }) };
      },
    },
    options,
  );
}
