import type { APIPromise } from '../../../core/api-promise.js';
import type { RequestOptions } from '../../../core/request.js';
import { APIResource } from '../../../core/resource.js';
import type { ChatCompletionStream } from './stream.js';
import type { ChatCompletion, ChatCompletionCreateParams, ChatCompletionCreateParamsNonStreaming, ChatCompletionCreateParamsStreaming } from './types.js';
import { lazy } from '../../../internal/lazy.js';

/** The schema (and zod) load with the first call; see core/resource.ts. */
const loadSchema = lazy(() => import('./schema.js'));
const loadStream = lazy(() => import('./stream.js').then((m) => m.ChatCompletionStream));

/** `client.chat.completions` */
export class Completions extends APIResource {
  /**
   * Creates a chat completion; with `stream: true` resolves to a {@link ChatCompletionStream}.
   * Parameters are checked before anything is sent ({@link ValidationError}).
   * @example
   * const completion = await client.chat.completions.create({
   *   model: 'gpt-4o-mini',
   *   messages: [{ role: 'user', content: 'Say hello' }],
   * });
   * console.log(completion.choices[0]?.message.content);
   */
  create(body: ChatCompletionCreateParamsNonStreaming, options?: RequestOptions): APIPromise<ChatCompletion>;
  create(body: ChatCompletionCreateParamsStreaming, options?: RequestOptions): APIPromise<ChatCompletionStream>;
  create(body: ChatCompletionCreateParams, options?: RequestOptions): APIPromise<ChatCompletion | ChatCompletionStream>;
  create(body: ChatCompletionCreateParams, options?: RequestOptions): APIPromise<ChatCompletion> | APIPromise<ChatCompletionStream> {
    const request = async () => {
      await this._check(loadSchema, body);
      return { method: 'POST', path: 'chat/completions', body } as const;
    };
    if (body?.stream) return this._stream({ request, load: loadStream }, options);
    return this._call<ChatCompletion>({ request }, options);
  }
}
