import type { Cost } from '../cost/cost.js';
import { APIUserAbortError, type GatewayError } from '../errors.js';

// Identical calls at once, answered by one request: a flight. Its request is sent apart
// from any one caller (its own signal), every caller waits for it on its own terms (its
// signal, its totalTimeout), and it is cancelled only when no caller waits any more, so one
// user leaving a page never fails the others asking the same thing.

/** A caller waiting for a flight: what stops it, and how long it may still wait. */
export interface Waiter {
  readonly signal: AbortSignal | undefined;
  budgetMs(): number | undefined;
  /** The error for a caller stopped by its signal (an abort, its totalTimeout). */
  stopped(what: string): GatewayError;
}

/** What a flight's request answered: the reply of sendRequest, and the model that answered. */
export interface Landed {
  response: Response;
  data: unknown;
  model?: string | undefined;
}

/** One request that identical calls share. */
export class Flight {
  readonly key: string;
  /** The per-attempt timeout its request is sent with (its first caller's): a caller that allows more asks again when it runs out. */
  attemptTimeoutMs = Number.POSITIVE_INFINITY;
  /** With the client's `cost`: what its request cost (the first caller's to report; every other caller's is 0). */
  cost: Promise<Cost | null> | undefined;
  /** The flight's own stop: aborted when every caller waiting for it has left. */
  readonly #controller = new AbortController();
  readonly #waiting = new Set<Waiter>();
  readonly #landed: Promise<Landed>;
  #land!: (landed: Landed) => void;
  #fail!: (error: unknown) => void;
  #settled = false;

  constructor(key: string) {
    this.key = key;
    this.#landed = new Promise<Landed>((resolve, reject) => {
      this.#land = resolve;
      this.#fail = reject;
    });
    // Nobody may be waiting when it fails (every caller left): that is not an unhandled rejection.
    this.#landed.catch(() => undefined);
  }

  /** What stops the flight's request: every caller has left. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The time the flight's request may take: as long as the most patient caller waiting (undefined when one has no totalTimeout). */
  budgetMs(): number | undefined {
    let most: number | undefined = 0;
    for (const waiter of this.#waiting) {
      const left = waiter.budgetMs();
      if (left === undefined) return undefined;
      most = Math.max(most, left);
    }
    return most;
  }

  /** The flight's answer, for one caller: stopped on its own by its signal, leaving the others waiting. */
  join(waiter: Waiter): Promise<Landed> {
    this.#waiting.add(waiter);
    const { signal } = waiter;
    const leave = () => {
      this.#waiting.delete(waiter);
      if (this.#waiting.size === 0 && !this.#settled) this.#controller.abort(new APIUserAbortError('Every caller waiting for this answer left.'));
    };
    return new Promise<Landed>((resolve, reject) => {
      const stop = () => {
        leave();
        reject(waiter.stopped('waiting for an identical call in flight'));
      };
      if (signal?.aborted) return stop();
      signal?.addEventListener('abort', stop, { once: true });
      this.#landed.then(resolve, reject).finally(() => {
        signal?.removeEventListener('abort', stop);
        this.#waiting.delete(waiter);
      });
    });
  }

  /** Stops the flight's request (a shared stream that every reader left). */
  cancel(): void {
    this.#controller.abort(new APIUserAbortError('Every caller reading this answer left.'));
  }

  /** The request answered. */
  land(landed: Landed): void {
    this.#settled = true;
    this.#land(landed);
  }

  /** The request failed; callers who are still waiting get its error. A stop of the flight's own is a timeout or an abort, never theirs. */
  fail(error: unknown): void {
    this.#settled = true;
    this.#fail(error);
  }
}
