import { APIPromise } from './api-promise.js';
import { guardTelemetry } from './telemetry.js';
import type { CallRequest, CoreConfig, DownloadOptions, RequestOptions, Schema, StreamClass } from './types.js';

/**
 * The client as resources see it. Its configuration (the API key among it) is kept in a
 * module-private WeakMap rather than on the object, so no inspection of a client, a
 * resource or a stream can reach it (`util.inspect` with `showHidden` and `getters`
 * included).
 */
export type APIClient = object;

const configs = new WeakMap<APIClient, CoreConfig>();

/**
 * @internal Attaches a client's resolved configuration; called once by its constructor.
 * The one place every client's configuration passes: its telemetry is guarded here.
 */
export function bindConfig(client: APIClient, config: CoreConfig): void {
  configs.set(client, config.telemetry ? { ...config, telemetry: guardTelemetry(config.telemetry) } : config);
}

/** @internal The resolved configuration of a client. */
export function configOf(client: APIClient): CoreConfig {
  const config = configs.get(client);
  if (!config) throw new TypeError('Not a Gateway client.');
  return config;
}

/** A JSON POST as a resource describes it; see `APIResource._post`. */
export interface PostSpec<T> extends Omit<CallRequest<T>, 'method' | 'path' | 'model' | 'body'> {
  /** The body as sent: checked by `schema` before anything is sent. */
  body: PostBody;
  schema: Schema;
}

/** A JSON request body, as `_post` reads it. */
export type PostBody = { model?: unknown; stream?: unknown } & object;

/**
 * Base class of every resource (`client.chat.completions`, `client.models`, …). A method
 * describes its call as data and hands it to the core in one of these calls; the returned
 * `APIPromise` runs it (core/call.ts `runCall`).
 */
export class APIResource {
  /** @internal */
  protected declare readonly _client: APIClient;

  constructor(client: APIClient) {
    // Not enumerable: keeps `JSON.stringify(client)` acyclic and the config out of logs.
    Object.defineProperty(this, '_client', { value: client });
  }

  /**
   * @internal The JSON POST most endpoints are: the body checked by `spec.schema` before
   * anything is sent, its model swappable for fallbacks, and with `stream: true` in the body
   * the events read into the Stream class `spec.stream`.
   */
  protected _post<T>(path: string, spec: PostSpec<T>, options?: RequestOptions): APIPromise<T> {
    const { body } = spec;
    const model = typeof body?.model === 'string' ? body.model : undefined;
    const request: CallRequest<T> = { ...spec, method: 'POST', path, model, stream: body?.stream ? spec.stream : undefined };
    return new APIPromise<T>(configOf(this._client), request, options ?? {});
  }

  /** @internal A GET; `{name}` placeholders in `path` are filled from `pathParams` by the core. */
  protected _get<T>(path: string, options?: RequestOptions, more?: Omit<CallRequest<T>, 'method' | 'path'>): APIPromise<T> {
    return new APIPromise<T>(configOf(this._client), { ...more, method: 'GET', path }, options ?? {});
  }

  /**
   * @internal A download (one path for every resource): `url` absolute, or relative to
   * `baseURL` (the gateway that made the file, else the main base). The key goes only to the
   * client's own origins, redirects included; the result's body reports progress.
   */
  protected _download(url: string | undefined, options: DownloadOptions, baseURL?: string): Promise<Response> {
    const { onProgress, ...requestOptions } = options;
    return new APIPromise<Response>(configOf(this._client), { method: 'GET', path: '', url, baseURL, download: { onProgress } }, requestOptions);
  }

  /** @internal Any other call, described as data (a multipart upload). */
  protected _request<T>(request: CallRequest<T>, options?: RequestOptions): APIPromise<T> {
    return new APIPromise<T>(configOf(this._client), request, options ?? {});
  }
}

export type { StreamClass };
