import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/request.js';
import { APIResource } from '../../core/resource.js';
import type { ResponseStream } from './stream.js';
import type { Response, ResponseCreateParams, ResponseCreateParamsNonStreaming, ResponseCreateParamsStreaming } from './types.js';
import { lazy } from '../../internal/lazy.js';

/** The schema (and zod) load with the first call; see core/resource.ts. */
const loadSchema = lazy(() => import('./schema.js'));
const loadHelpers = lazy(() => import('./stream.js'));

const terminal = new Set(['response.completed', 'response.failed', 'response.incomplete']);
/** True for the events that end a responses stream (it sends no `[DONE]`). */
const isTerminal = (event: unknown) => terminal.has((event as { type?: string }).type ?? '');

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
  create(body: ResponseCreateParams, options?: RequestOptions): APIPromise<Response> | APIPromise<ResponseStream> {
    const request = async () => {
      await this._check(loadSchema, body);
      return { method: 'POST', path: 'responses', body } as const;
    };
    // The stream class and output helpers load on first use (see core/resource.ts).
    if (body?.stream) return this._stream<ResponseStream>({ request, load: () => loadHelpers().then((m) => m.ResponseStream), sse: { expectDone: false, isTerminal } }, options);
    return this._call<Response>({ request, map: async (data) => (await loadHelpers()).withOutputText(data as Response) }, options);
  }
}
