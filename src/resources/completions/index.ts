import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/types.js';
import { APIResource } from '../../core/resource.js';
import type { Stream } from '../../core/streams/stream.js';
import * as schema from './schema.js';
import { CompletionStream } from './stream.js';
import type { CompletionCreateParamsNonStreaming, CompletionCreateParamsStreaming, CompletionCreateParams, Completion } from './types.js';

/** `client.completions`: legacy text completions (chat completions are preferred). */
export class Completions extends APIResource {
  /**
   * Creates a text completion; with `stream: true` resolves to a `Stream<Completion>`.
   * @example
   * const res = await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say this is a test' });
   * console.log(res.choices[0]?.text);
   */
  create(body: CompletionCreateParamsNonStreaming, options?: RequestOptions): APIPromise<Completion>;
  create(body: CompletionCreateParamsStreaming, options?: RequestOptions): APIPromise<Stream<Completion>>;
  create(body: CompletionCreateParams, options?: RequestOptions): APIPromise<Completion | Stream<Completion>>;
  create(body: CompletionCreateParams, options?: RequestOptions): APIPromise<Completion | Stream<Completion>> {
    return this._post('completions', { body, schema, stream: CompletionStream, cache: 'whole' }, options);
  }
}
