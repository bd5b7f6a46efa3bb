import { lazy, type Lazy } from '../internal/lazy.js';
import { APIPromise } from './api-promise.js';
import { runCall, type CallSpec } from './call.js';
import type { Stream, StreamClass } from './stream.js';
import type { SSEOptions } from './streaming.js';
import type { CoreConfig, CoreRequest, OpenStream, RequestOptions } from './types.js';

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

/** The SSE reader (with eventsource-parser) loads with the first stream. */
const loadStreaming = lazy(() => import('./streaming.js'));

/** What validates a method's arguments. */
export interface SchemaModule {
  check(value: unknown): void;
}

/**
 * Where a method's schema comes from: its module loaded on first use
 * (`lazy(() => import('./schema.js'))`), or the module itself when the caller already has it.
 */
export type SchemaSource = Lazy<SchemaModule> | SchemaModule;

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
  protected _check(schema: SchemaSource, value: unknown): void | Promise<void> {
    // Once loaded, checked at once, without a promise: this runs before every request.
    if (typeof schema !== 'function') return schema.check(value);
    if (schema.loaded) return schema.loaded.check(value);
    return schema().then((loaded) => loaded.check(value));
  }

  /**
   * @internal Runs one method call (core/call.ts): `spec.request()` checks the arguments (a
   * ValidationError there sends nothing) and describes the request; the core sends it, with
   * retries, failover and model fallback; `spec.map()` shapes the answer.
   */
  protected _call<T>(spec: CallSpec<T>, options?: RequestOptions): APIPromise<T> {
    const config = configOf(this._client);
    return new APIPromise<T>((raw) => runCall(config, spec, options ?? {}, raw));
  }

  /** @internal The call pipeline, for method implementations that load on first use (`calls.ts`). */
  protected _pipeline(): CallPipeline {
    return {
      call: (spec, options) => this._call(spec, options),
      post: (spec, options) => this._post(spec, options),
      config: configOf(this._client),
    };
  }

  /**
   * @internal A call whose implementation loads on first use: `make` gets the loaded module
   * and returns the real APIPromise, whose raw mode (`asResponse()`) follows this one's.
   */
  protected _callWhenLoaded<M, T>(load: Lazy<M>, make: (module: M) => APIPromise<T>): APIPromise<T> {
    if (load.loaded) {
      // Loaded: the real call as it is, without a second APIPromise around it.
      try {
        return make(load.loaded);
      } catch (error) {
        return new APIPromise<T>(() => Promise.reject(error));
      }
    }
    return new APIPromise<T>(async (raw) => {
      const inner = make(await load());
      // Chosen before the inner call starts (on its next microtask).
      if (raw) return inner.asResponse().then((response) => ({ response }));
      return inner.withResponse();
    });
  }

  /** @internal A GET whose path the caller has already built (with the `path` tag). */
  protected _get<T>(path: string | (() => string), options?: RequestOptions): APIPromise<T> {
    return this._call<T>({ request: () => ({ method: 'GET', path: typeof path === 'string' ? path : path() }) }, options);
  }

  /**
   * @internal The JSON POST most endpoints are: the arguments checked by `spec.schema` before
   * anything is sent, the model swappable for fallbacks, and with `stream: true` the
   * events read into the Stream class `spec.stream` gives.
   */
  protected _post<T>(spec: PostSpec<T>, options?: RequestOptions): APIPromise<T> {
    const { path, body, schema } = spec;
    const build = (model?: string) => {
      const sent = model ? { ...body, model } : body;
      return { method: 'POST', path, body: spec.wire ? spec.wire(sent) : sent } as const;
    };
    const request = (model?: string) => {
      // The body is the same for every model: checked once, before the first attempt (no model).
      const checking = model === undefined ? this._check(schema, body) : undefined;
      return checking ? checking.then(() => build(model)) : build(model);
    };
    const call = { model: body?.model, clientFallbacks: spec.clientFallbacks, request };
    return body?.stream && spec.stream ? (this._stream({ ...call, load: spec.stream, sse: spec.sse }, options) as APIPromise<T>) : this._call<T>({ ...call, map: spec.map }, options);
  }

  /**
   * @internal A call whose answer is server-sent events, read into a `Stream` subclass. The
   * SSE reader (with eventsource-parser) and the stream class load with the first stream,
   * so apps that never stream do not carry them.
   */
  protected _stream<S extends Stream<unknown>>(spec: StreamSpec<S>, options?: RequestOptions): APIPromise<S> {
    const config = configOf(this._client);
    const controller = new AbortController();
    const streamed = (described: CoreRequest): CoreRequest => ({ ...described, stream: true, controller });
    return this._call<S>(
      {
        model: spec.model,
        clientFallbacks: spec.clientFallbacks,
        request: (model) => {
          const described = spec.request(model);
          return described instanceof Promise ? described.then(streamed) : streamed(described);
        },
        map: async (open) => {
          const opened = open as OpenStream;
          const [{ openStream }, Class] = await Promise.all([loadStreaming(), spec.load()]).catch((error: unknown) => {
            // The reader could not load (a chunk that failed to download): release the body.
            void opened.reader.cancel().catch(() => undefined);
            controller.abort();
            throw error;
          });
          return openStream(opened, controller, Class, { ...spec.sse, idleTimeoutMs: options?.idleTimeout ?? config.idleTimeout, redactor: config.redactor });
        },
      },
      options,
    );
  }
}

export type { CallSpec };

/** How a streaming call runs; see `APIResource._stream`. */
export interface StreamSpec<S> extends Pick<CallSpec<S>, 'model' | 'clientFallbacks'> {
  request: (model?: string) => CoreRequest | Promise<CoreRequest>;
  /** Loads the Stream subclass (on first use). */
  load: () => Promise<StreamClass<S>>;
  sse?: Pick<SSEOptions, 'expectDone' | 'isTerminal'> | undefined;
}

/** A resource's call pipeline, as `_pipeline()` hands it to an implementation loaded on first use. */
export interface CallPipeline {
  call<T>(spec: CallSpec<T>, options?: RequestOptions): APIPromise<T>;
  post<T>(spec: PostSpec<T>, options?: RequestOptions): APIPromise<T>;
  config: CoreConfig;
}

/** A JSON request body, as `_post` reads it. */
export type PostBody = { model?: unknown; stream?: unknown } & object;

/** A JSON POST; see `APIResource._post`. */
export interface PostSpec<T> {
  /** Relative path without a leading slash: `chat/completions`. */
  path: string;
  /** The caller's body: checked by `schema`, sent as it is (or as `wire` makes it). */
  body: PostBody;
  schema: SchemaSource;
  /** The body as sent, from the caller's (with the model already swapped). */
  wire?: ((body: object) => unknown) | undefined;
  /** Shapes the parsed JSON into the result. */
  map?: ((data: unknown, response: Response) => T | Promise<T>) | undefined;
  /** With `stream: true` in the body: loads the Stream class the events are read into. */
  stream?: (() => Promise<StreamClass<Stream<unknown>>>) | undefined;
  sse?: StreamSpec<unknown>['sse'];
  clientFallbacks?: boolean | undefined;
}
