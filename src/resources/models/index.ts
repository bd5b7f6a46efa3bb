import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/types.js';
import { APIResource } from '../../core/resource.js';
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
}
