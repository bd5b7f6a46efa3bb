import type { RequestOptions } from '../../core/request.js';
import { APIResource } from '../../core/resource.js';
import type { ResponseStream } from './stream.js';
import type { Response, ResponseCreateParams, ResponseCreateParamsNonStreaming, ResponseCreateParamsStreaming } from './types.js';
import { lazy } from '../../internal/lazy.js';

/** The schema (and zod) load with the first call; see core/resource.ts. */
const loadSchema = lazy(() => import('./schema.js'));

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
  create(body: ResponseCreateParamsNonStreaming, options?: RequestOptions): Promise<Response>;
  create(body: ResponseCreateParamsStreaming, options?: RequestOptions): Promise<ResponseStream>;
  create(body: ResponseCreateParams, options?: RequestOptions): Promise<Response | ResponseStream>;
  async create(body: ResponseCreateParams, options?: RequestOptions): Promise<Response | ResponseStream> {
    await this._check(loadSchema, body);
    // The stream class and output helpers load on first use (see core/resource.ts).
    const { ResponseStream, isTerminal, withOutputText } = await import('./stream.js');
    if (body.stream) return this._stream('responses', body, options, ResponseStream, { expectDone: false, isTerminal });
    return withOutputText(await this._post<Response>('responses', body, options));
  }
}
