import { requestIDFrom } from '../internal/request-id.js';
import { runCall } from './request/call.js';
import { GatewayError } from './errors.js';
import type { CacheOutcome } from './hooks.js';
import type { Cost } from './cost/cost.js';
import type { CallOutcome, CallRequest, CoreConfig, RequestOptions } from './types.js';

/** What a call produced: the result, and the HTTP response it came from. */
export interface APIResult<T> {
  data: T;
  response: Response;
  /** `x-request-id`, else `x-oneapi-request-id`, else null. */
  requestID: string | null;
  /**
   * What the response cache made of the call: `hit` (answered from it, nothing sent), `miss`
   * (sent, and kept), `partial` (embeddings: only the inputs it lacked were sent); null without
   * a cache, for calls it never answers, or with `cache: 'bypass'`.
   */
  cache: CacheOutcome | null;
  /**
   * With the client's `cost` option: what the call cost as the gateway prices it (`quota`,
   * `usd`, `source`); 0 for a cache hit or a caller joined to an identical call. Null
   * without `cost`, when the call could not be priced, and for a stream (its cost comes at
   * its end: `await stream.cost()`). See docs/cost.md.
   */
  cost: Cost | null;
}

/**
 * What every method returns: a Promise of the result, which can also give the HTTP response.
 * Awaiting it works as before; nothing is kept or copied for that path.
 *
 * @example
 * const { data, response, requestID } = await client.chat.completions.create(params).withResponse();
 * console.log(response.headers.get('x-ratelimit-remaining-requests'), requestID);
 *
 * const raw = await client.models.list().asResponse(); // body unread, not parsed or checked
 */
export class APIPromise<T> extends Promise<T> {
  readonly #config: CoreConfig;
  readonly #request: CallRequest<T>;
  readonly #options: RequestOptions;
  #raw = false;
  #running: Promise<CallOutcome<T>> | undefined;

  /** @internal Methods create these (core/resource.ts); there is no public use of the constructor. */
  constructor(config: CoreConfig, request: CallRequest<T>, options: RequestOptions) {
    // The base promise is never used: then/catch/finally are overridden to run the call.
    super((resolve) => resolve(undefined as T));
    this.#config = config;
    this.#request = request;
    this.#options = options;
    // Start on the next microtask, like an eager promise, late enough for a chained
    // asResponse() to choose the raw mode first. A failure nobody awaits is reported as an
    // unhandled rejection, as a plain promise's would be.
    queueMicrotask(() => void this.#run());
  }

  // Derived promises (from then/catch/finally) are plain Promises.
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** The call, started once: the request as described, sent by the core (core/call.ts). */
  #run(): Promise<CallOutcome<T>> {
    return (this.#running ??= runCall(this.#config, this.#request, this.#options, this.#raw));
  }

  #result(): Promise<APIResult<T>> {
    return this.#run().then((outcome) => ({ data: dataOf(outcome), response: outcome.response, requestID: requestIDFrom(outcome.response.headers), cache: outcome.cache, cost: outcome.cost }));
  }

  /**
   * The result with the HTTP response it came from, e.g. to read rate-limit headers.
   * For a stream, `data` is the Stream.
   */
  withResponse(): Promise<APIResult<T>> {
    return this.#result();
  }

  /**
   * The raw `Response`, body unread: not parsed, and not checked beyond its status (errors
   * still throw, and retries and failover still apply). Call it on the promise as returned,
   * before awaiting it.
   */
  asResponse(): Promise<Response> {
    // Once the call runs for its result (awaited, withResponse()), its body is being read: a
    // Response handed out then could not be read.
    if (this.#running && !this.#raw) return Promise.reject(new GatewayError('asResponse() was called after the call started for its result: call it on the promise as returned.'));
    this.#raw = true;
    return this.#run().then((result) => result.response);
  }

  // `reason: any` mirrors Promise#then in lib.es5.d.ts, so `.then(ok, (e: Error) => …)` and
  // `.catch(…)` type-check as on any Promise. catch() and finally() are Promise's own: both
  // call this.then().
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    onrejected?: ((reason: any) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    // One hop from the call's result to the caller's callbacks: this is the plain await path.
    // A result that cannot be given (asResponse() was chosen) goes to onrejected, as a
    // rejection of this promise would.
    return this.#run().then((outcome) => {
      let data: T;
      try {
        data = dataOf(outcome);
      } catch (error) {
        if (onrejected) return onrejected(error);
        throw error;
      }
      return onfulfilled ? onfulfilled(data) : (data as unknown as R1);
    }, onrejected);
  }
}

/** The result, or an error saying the raw response was asked for instead. */
function dataOf<T>(outcome: CallOutcome<T>): T {
  if (!('data' in outcome)) throw new GatewayError('asResponse() was called on this request: its body is yours to read from the Response.');
  return outcome.data as T;
}
