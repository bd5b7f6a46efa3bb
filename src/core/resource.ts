import type { CoreConfig, CoreRequest, RequestOptions } from './request.js';
import { send } from './request.js';
import type { SSEOptions, Stream } from './streaming.js';

/** The part of the client that resources use; everything HTTP lives behind it. */
export interface APIClient {
  /** @internal */
  readonly _config: CoreConfig;
}

type StreamClass<S> = new (iterator: AsyncIterator<never>, controller: AbortController) => S;

/** A lazily loaded schema module: `() => import('./x.schema.js')`. */
export type SchemaLoader = () => Promise<{ check(value: unknown): void }>;

/** Base class of every resource (`client.chat.completions`, `client.models`, …). */
export class APIResource {
  /** @internal */
  protected declare readonly _client: APIClient;

  constructor(client: APIClient) {
    // Not enumerable: keeps `JSON.stringify(client)` acyclic and the config out of logs.
    Object.defineProperty(this, '_client', { value: client });
  }

  /**
   * @internal Validates before anything is sent. Schemas (and zod) load on first use, so
   * an app pays for the schemas of the endpoints it calls, at import time and in its bundle.
   */
  protected async _check(load: SchemaLoader, value: unknown): Promise<void> {
    (await load()).check(value);
  }

  /** @internal Sends one request through the core and returns the parsed JSON. */
  protected _request<T>(req: CoreRequest, options?: RequestOptions): Promise<T> {
    return send(this._client._config, { ...options, ...req }) as Promise<T>;
  }

  /** @internal GET a JSON resource. */
  protected _get<T>(path: string, options?: RequestOptions): Promise<T> {
    return this._request<T>({ method: 'GET', path }, options);
  }

  /** @internal POST a JSON body and read a JSON result. */
  protected _post<T>(path: string, body: unknown, options?: RequestOptions): Promise<T> {
    return this._request<T>({ method: 'POST', path, body }, options);
  }

  /**
   * @internal POST a JSON body and read server-sent events into a `Stream` subclass. The SSE
   * reader (and eventsource-parser) loads on the first stream, so apps that never stream
   * do not carry it.
   */
  protected async _stream<S extends Stream<unknown>>(
    path: string,
    body: unknown,
    options: RequestOptions | undefined,
    Class: StreamClass<S>,
    sse: Pick<SSEOptions, 'expectDone' | 'isTerminal'> = {},
  ): Promise<S> {
    const config = this._client._config;
    const controller = new AbortController();
    const req: CoreRequest & { stream: true } = { ...options, method: 'POST', path, body, stream: true, controller };
    const [open, { iterateSSE }] = await Promise.all([send(config, req), import('./streaming.js')]);
    // The generator does not run before the first next(), so `stream` is set by then.
    let stream: S | undefined;
    const iterator = iterateSSE<never>(open, controller, {
      ...sse,
      onFrame: (frame) => stream?._observe(frame),
      idleTimeoutMs: options?.idleTimeout ?? config.idleTimeout,
      secret: config.apiKey,
    });
    stream = new Class(iterator, controller);
    return stream;
  }
}
