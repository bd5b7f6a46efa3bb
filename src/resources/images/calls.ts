import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/types.js';
import type { CallPipeline } from '../../core/resource.js';
import { postForm } from '../../core/post-form.js';
import { checkEdit, checkGenerate } from './schema.js';
import type { ImageEditParams, ImageGenerateParams, ImagesResponse } from './types.js';

// The image calls, loaded with the first one (with their schemas and zod).

/** POST images/generations; the size checked against the model's documented sizes. */
export function generate(api: CallPipeline, body: ImageGenerateParams, options: RequestOptions | undefined): APIPromise<ImagesResponse> {
  return api.post({ path: 'images/generations', body, schema: { check: checkGenerate } }, options);
}

/** POST images/edits as multipart, built once so every retry and fallback replays it whole. */
export function edit(api: CallPipeline, body: ImageEditParams, options: RequestOptions | undefined): APIPromise<ImagesResponse> {
  return postForm(api, { path: 'images/edits', body, files: ['image', 'mask'], check: checkEdit }, options);
}
