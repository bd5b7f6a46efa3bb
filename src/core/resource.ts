import type { CoreConfig, CoreRequest, OpenStream, RequestOptions } from './request.js';
import { send } from './request.js';
import { iterateSSE, type SSEOptions, type Stream } from './streaming.js';

/** The part of the client that resources use; everything HTTP lives behind it. */
export interface APIClient {
  /** @internal */
  readonly _config: CoreConfig;
}

type StreamClass<S> = new (iterator: AsyncIterator<never>, controller: AbortController) => S;

/** Base class of every resource (`client.chat.completions`, `client.models`, …). */
export class APIResource {
  /** @internal */
  protected declare readonly _client: APIClient;

  constructor(client: APIClient) {
    // Not enumerable: keeps `JSON.stringify(client)` acyclic and the config out of logs.
    Object.defineProperty(this, '_client', { value: client });
  }

  /** @internal GET a JSON resource. */
  protected _get<T>(path: string, options?: RequestOptions): Promise<T> {
    return send(this._client._config, { ...options, method: 'GET', path }) as Promise<T>;
  }

  /** @internal POST a JSON body and read a JSON result. */
  protected _post<T>(path: string, body: unknown, options?: RequestOptions): Promise<T> {
    return send(this._client._config, { ...options, method: 'POST', path, body }) as Promise<T>;
  }

  /** @internal POST a JSON body and read server-sent events into a `Stream` subclass. */
  protected async _stream<S extends Stream<unknown>>(
    path: string,
    body: unknown,
    options: RequestOptions | undefined,
    Class: StreamClass<S>,
    sse: Pick<SSEOptions, 'expectDone'> = {},
  ): Promise<S> {
    const config = this._client._config;
    const controller = new AbortController();
    const req: CoreRequest & { stream: true } = { ...options, method: 'POST', path, body, stream: true, controller };
    const open: OpenStream = await send(config, req);
    const iterator = iterateSSE<never>(open, controller, {
      ...sse,
      idleTimeoutMs: options?.idleTimeout ?? config.idleTimeout,
      secret: config.apiKey,
    });
    return new Class(iterator, controller);
  }
}
