import type { RequestOptions } from '../../core/request.js';
import { APIResource } from '../../core/resource.js';
import type { Stream } from '../../core/streaming.js';
import { lazy } from '../../internal/lazy.js';
import type { CompletionCreateParamsNonStreaming, CompletionCreateParamsStreaming, CompletionCreateParams, Completion } from './types.js';

/** The schema (and zod) load with the first call; see core/resource.ts. */
const loadSchema = lazy(() => import('./schema.js'));

/** `client.completions`: legacy text completions (chat completions are preferred). */
export class Completions extends APIResource {
  /**
   * Creates a text completion; with `stream: true` resolves to a `Stream<Completion>`.
   * @example
   * const res = await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say this is a test' });
   * console.log(res.choices[0]?.text);
   */
  create(body: CompletionCreateParamsNonStreaming, options?: RequestOptions): Promise<Completion>;
  create(body: CompletionCreateParamsStreaming, options?: RequestOptions): Promise<Stream<Completion>>;
  create(body: CompletionCreateParams, options?: RequestOptions): Promise<Completion | Stream<Completion>>;
  async create(body: CompletionCreateParams, options?: RequestOptions): Promise<Completion | Stream<Completion>> {
    await this._check(loadSchema, body);
    if (!body.stream) return this._post<Completion>('completions', body, options);
    const { Stream } = await import('../../core/streaming.js');
    return this._stream('completions', body, options, Stream<Completion>);
  }
}
