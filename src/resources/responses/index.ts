import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/types.js';
import { APIResource } from '../../core/resource.js';
import * as schema from './schema.js';
import { ResponseStream, withOutputText } from './stream.js';
import type { Response, ResponseCreateParams, ResponseCreateParamsNonStreaming, ResponseCreateParamsStreaming } from './types.js';

/** `client.responses`: the newer "responses" endpoint. */
export class Responses extends APIResource {
  /**
   * Creates a model response; with `stream: true` resolves to a `ResponseStream` of
   * typed events, which ends at `response.completed`, `response.failed` or
   * `response.incomplete` (the endpoint sends no `[DONE]`).
   * @example
   * const response = await client.responses.create({ model: 'gpt-4o-mini', input: 'Say hi' });
   * console.log(response.output_text);
   */
  create(body: ResponseCreateParamsNonStreaming, options?: RequestOptions): APIPromise<Response>;
  create(body: ResponseCreateParamsStreaming, options?: RequestOptions): APIPromise<ResponseStream>;
  create(body: ResponseCreateParams, options?: RequestOptions): APIPromise<Response | ResponseStream>;
  create(body: ResponseCreateParams, options?: RequestOptions): APIPromise<Response | ResponseStream> {
    return this._post<Response | ResponseStream>('responses', { body, schema, stream: ResponseStream, map: (data) => withOutputText(data as Response), cache: 'whole' }, options);
  }
}
