import type { CoreConfig, CoreRequest, RequestOptions } from './request.js';
import { send } from './request.js';
import type { SSEOptions, Stream } from './streaming.js';

/**
 * The client as resources see it. Its configuration (the API key among it) is kept in a
 * module-private WeakMap rather than on the object, so no inspection of a client, a
 * resource or a stream can reach it (`util.inspect` with `showHidden` and `getters`
 * included).
 */
export type APIClient = object;

const configs = new WeakMap<APIClient, CoreConfig>();

/** @internal Attaches a client's resolved configuration; called once by its constructor. */
export function bindConfig(client: APIClient, config: CoreConfig): void {
  configs.set(client, config);
}

/** @internal The resolved configuration of a client. */
export function configOf(client: APIClient): CoreConfig {
  const config = configs.get(client);
  if (!config) throw new TypeError('Not a Gateway client.');
  return config;
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
    return send(configOf(this._client), { ...options, ...req }) as Promise<T>;
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
    const config = configOf(this._client);
    const controller = new AbortController();
    const req: CoreRequest & { stream: true } = { ...options, method: 'POST', path, body, stream: true, controller };
    const [open, { iterateSSE }] = await Promise.all([send(config, req), import('./streaming.js')]);
    // The generator does not run before the first next(), so `stream` is set by then.
    let stream: S | undefined;
    const iterator = iterateSSE<never>(open, controller, {
      ...sse,
      onFrame: (frame) => stream?._observe(frame),
      idleTimeoutMs: options?.idleTimeout ?? config.idleTimeout,
      redactor: config.redactor,
    });
    stream = new Class(iterator, controller);
    return stream;
  }
}
