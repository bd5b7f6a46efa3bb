import type { RequestOptions } from '../../../core/request.js';
import { APIResource } from '../../../core/resource.js';
import type { ChatCompletionStream } from './stream.js';
import type { ChatCompletion, ChatCompletionCreateParams, ChatCompletionCreateParamsNonStreaming, ChatCompletionCreateParamsStreaming } from './types.js';
import { lazy } from '../../../internal/lazy.js';

/** The schema (and zod) load with the first call; see core/resource.ts. */
const loadSchema = lazy(() => import('./schema.js'));

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
  create(body: ChatCompletionCreateParamsNonStreaming, options?: RequestOptions): Promise<ChatCompletion>;
  create(body: ChatCompletionCreateParamsStreaming, options?: RequestOptions): Promise<ChatCompletionStream>;
  create(body: ChatCompletionCreateParams, options?: RequestOptions): Promise<ChatCompletion | ChatCompletionStream>;
  async create(body: ChatCompletionCreateParams, options?: RequestOptions): Promise<ChatCompletion | ChatCompletionStream> {
    await this._check(loadSchema, body);
    if (!body.stream) return this._post<ChatCompletion>('chat/completions', body, options);
    const { ChatCompletionStream } = await import('./stream.js');
    return this._stream('chat/completions', body, options, ChatCompletionStream);
  }
}
