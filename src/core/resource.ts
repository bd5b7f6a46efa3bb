import { APIPromise } from './api-promise.js';
import type { CoreConfig, CoreRequest, OpenStream, RequestOptions } from './request.js';
import { requestIDOf, send } from './request.js';
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

  /**
   * @internal Runs one method call: `request()` checks the arguments (a ValidationError
   * there sends nothing) and describes the request; the core sends it; `map()` shapes the
   * parsed body into the result (skipped for `asResponse()`).
   */
  protected _call<T>(spec: CallSpec<T>, options?: RequestOptions): APIPromise<T> {
    const config = configOf(this._client);
    return new APIPromise<T>(async (raw) => {
      try {
        const sent = await send(config, { ...options, ...(await spec.request()), raw });
        const requestID = requestIDOf(sent.response);
        if (raw) return { response: sent.response, requestID };
        return { data: spec.map ? await spec.map(sent.data, sent.response) : (sent.data as T), response: sent.response, requestID };
      } catch (error) {
        throw spec.mapError ? await spec.mapError(error) : error;
      }
    });
  }

  /**
   * @internal A call whose answer is server-sent events, read into a `Stream` subclass. The
   * SSE reader (with eventsource-parser) and the stream class load with the first stream,
   * so apps that never stream do not carry them.
   */
  protected _stream<S extends Stream<unknown>>(spec: StreamSpec<S>, options?: RequestOptions): APIPromise<S> {
    const config = configOf(this._client);
    const controller = new AbortController();
    return this._call<S>(
      {
        request: async () => ({ ...(await spec.request()), stream: true, controller }),
        map: async (open) => {
          const [{ iterateSSE }, Class] = await Promise.all([import('./streaming.js'), spec.load()]);
          // The iterator does not read before the first next(), so `stream` is set by then.
          let stream: S | undefined;
          const iterator = iterateSSE<never>(open as OpenStream, controller, {
            ...spec.sse,
            onFrame: (frame) => stream?._observe(frame),
            idleTimeoutMs: options?.idleTimeout ?? config.idleTimeout,
            redactor: config.redactor,
          });
          stream = new Class(iterator, controller);
          return stream;
        },
      },
      options,
    );
  }
}

/** How one method call runs; see `APIResource._call`. */
export interface CallSpec<T> {
  /** Checks the arguments (loading a schema when needed) and describes the request. */
  request: () => CoreRequest | Promise<CoreRequest>;
  /** Shapes the parsed body into the result. @default the body as it is */
  map?: ((data: unknown, response: Response) => T | Promise<T>) | undefined;
  /** Turns a failure into the error the method documents. */
  mapError?: ((error: unknown) => unknown) | undefined;
}

/** How a streaming call runs; see `APIResource._stream`. */
export interface StreamSpec<S> {
  request: () => CoreRequest | Promise<CoreRequest>;
  /** Loads the Stream subclass (on first use). */
  load: () => Promise<StreamClass<S>>;
  sse?: Pick<SSEOptions, 'expectDone' | 'isTerminal'> | undefined;
}
