import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/types.js';
import { APIResource, configOf } from '../../core/resource.js';
import type { GatewayPricing } from '../../core/gateway-info/gateway-info.js';
import type { Model, ModelList } from './types.js';

/** `client.models`: the catalogue of model ids the gateway serves. */
export class Models extends APIResource {
  /**
   * Lists the models available to this key.
   * @example
   * const { data } = await client.models.list();
   * console.log(data.map((m) => m.id));
   */
  list(options?: RequestOptions): APIPromise<ModelList> {
    return this._get<ModelList>('models', options);
  }

  /**
   * Retrieves one model; rejects with `NotFoundError` (`model_not_found`) for unknown ids.
   * @example const model = await client.models.retrieve('gpt-4o-mini');
   */
  retrieve(id: string, options?: RequestOptions): APIPromise<Model> {
    return this._get<Model>('models/{id}', options, { pathParams: { id } });
  }

  /** @internal A GET of an absolute URL on the gateway (its accounting endpoints), its body as text: through the request path like any call. */
  _text(url: string, options: RequestOptions = {}): Promise<string> {
    return this._get<string>('', options, { url, responseType: 'text' });
  }

  /**
   * @internal The gateway's own tables (`/api/pricing`, `/api/status`: each model's ratios and
   * `supported_endpoint_types`), or null for a gateway without them (warned of once, unless
   * `quiet`); waited for at most `waitMs` when given; shared through the store (core/gateway-info). Loaded with its first use: the
   * `probe` command, pricing, a chat refusal that does not say why.
   */
  async _gatewayInfo(options: { signal?: AbortSignal | undefined; quiet?: boolean | undefined; waitMs?: number | undefined } = {}): Promise<GatewayPricing | null> {
    const { readGatewayInfo } = await import('../../core/gateway-info/gateway-info.js');
    // Through the request path like any call (retries, timeouts, the key only to the client's own origin), its body as text.
    const get = (url: string) => this._text(url);
    return readGatewayInfo(configOf(this._client), get, options);
  }
}
