import { ChatCompletionStream } from './stream.js';
import type { FrameSource } from '../../../core/streams/stream.js';
import { GatewayError } from '../../../core/errors.js';
import { parseCompletion } from './parse.js';
import type { PartialSource } from './partial-objects.js';
import type { ChatCompletionParseParams, ParsedChatCompletion, ParsedChatCompletionStream } from './structured.types.js';
import type { ChatCompletion, ChatCompletionChunk } from './types.js';

/** The stream of `parse({ stream: true })`: chunks as usual, a parsed `finalChatCompletion()`, and `partialObjects()`. */
export class ParsingChatCompletionStream extends ChatCompletionStream<ParsedChatCompletion> implements ParsedChatCompletionStream {
  /** The params of the parse() call: their response format and tools parse the final completion. */
  readonly #params: ChatCompletionParseParams;
  /** @internal */
  constructor(source: FrameSource<ChatCompletionChunk>, controller: AbortController, params?: unknown) {
    super(source, controller);
    this.#params = params as ChatCompletionParseParams;
  }

  /** Content deltas of the first choice not yet parsed, once partialObjects() was called. */
  #deltas: string[] | undefined;
  #finalCalled = false;
  #failed: Promise<never> | undefined;

  /** @internal */
  override _observe(chunk: ChatCompletionChunk): void {
    super._observe(chunk);
    if (this.#deltas) {
      const content = contentOf(chunk);
      if (content) this.#deltas.push(content);
    }
  }

  override finalChatCompletion(): Promise<ParsedChatCompletion> {
    this.#finalCalled = true;
    return this.#failed ?? super.finalChatCompletion();
  }

  partialObjects(): AsyncIterableIterator<unknown> {
    let chunks: AsyncIterator<ChatCompletionChunk>;
    try {
      chunks = this[Symbol.asyncIterator]();
    } catch (cause) {
      throw new GatewayError('partialObjects() reads the stream itself: call it before the stream is read (for await, finalChatCompletion()), and read the chunks or the partial objects, not both.', { cause });
    }
    const deltas: string[] = (this.#deltas = []);
    const fail = (error: unknown) => {
      if (this.#finalCalled || this.#failed) return;
      this.#failed = Promise.reject(this._redact(error));
      this.#failed.catch(() => undefined);
    };
    return this.#partials({ chunks, deltas, final: () => this.finalChatCompletion(), fail });
  }

  protected override async _finalize(completion: ChatCompletion): Promise<ParsedChatCompletion> {
    try {
      return await parseCompletion(completion, this.#params);
    } catch (error) {
      // A ParseError quotes the reply, which may echo the key.
      throw this._redact(error);
    }
  }

  async *#partials(source: PartialSource): AsyncGenerator<unknown, void, undefined> {
    try {
      // The incremental parser (with jsonriver) loads with the first partialObjects().
      yield* (await import('./partial-objects.js')).streamPartials(source);
    } catch (error) {
      throw this._redact(error);
    }
  }
}

/** The content delta of the first choice, if the chunk carries one. */
function contentOf(chunk: ChatCompletionChunk): string | undefined {
  for (const choice of chunk.choices ?? []) {
    if (choice.index === 0) return choice.delta?.content ?? undefined;
  }
  return undefined;
}
