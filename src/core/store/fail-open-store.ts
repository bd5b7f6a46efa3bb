import { patientTimeout } from '../../internal/patient-timeout.js';
import { ValidationError } from '../errors.js';
import { MemoryStore, type Store } from './store.js';
import { addProblem, keysProblem, setProblem, takeProblem, type CounterAdd, type StoreProblem } from './store-rules.js';

/** Options of {@link failOpenStore}. */
export interface FailOpenOptions {
  /** The ms an operation of the store may take before it is answered from memory instead. @default 250 */
  timeoutMs?: number | undefined;
  /** While the store is unreachable, the ms between checks whether it answers again. @default 1000 */
  retryMs?: number | undefined;
  /**
   * Told, with a whole line, when the store becomes unreachable (`'warn'`, once per outage)
   * and when it answers again (`'info'`). It must not throw.
   */
  log: (level: 'warn' | 'info', line: string) => void;
  /** Where the state goes while the store is unreachable. @default memoryStore() */
  fallback?: Store | undefined;
}

/**
 * The key a recovery check writes (for a second): a store that answers reads but refuses
 * writes (a read-only replica after a failover, a full Redis with `noeviction`) is still out.
 */
const PROBE_KEY = 'ug-store-check';

const refuse = (problem: StoreProblem | undefined): void => {
  if (problem) throw new ValidationError(...problem);
};

/**
 * A {@link Store} that never fails a call because of the store it wraps: each operation has
 * `timeoutMs`; when one fails, times out or answers something that is not a store's answer,
 * the wrapper answers it from `fallback` (this process's memory), warns once, and sends
 * everything there until a check every `retryMs` finds the store answering again (logged
 * once). Late answers and rejections of operations it gave up on are swallowed. Arguments a
 * store would refuse are refused here, with `ValidationError`, before any store sees them.
 *
 * The wrapper always has `add`. When the store it wraps has none (a custom store written
 * before `add` existed), every `add` goes to `fallback`, as in an outage but with no warning:
 * the counters stay in this process's memory, not shared. A `fallback` without `add` leaves
 * them in a memory store of the wrapper's own.
 */
export function failOpenStore(store: Store, options: FailOpenOptions): GuardedStore {
  return new FailOpenStore(store, options);
}

/** The guard of each store a client was given: one per store, so a store that is both the fleet's and the cache's warns and waits once in an outage. */
const guards = new WeakMap<Store, FailOpenStore>();

/** A store behind its guard, which says whether the store itself answers now (else memory does). */
export interface GuardedStore extends Store {
  readonly reachable: boolean;
  /** Always there: see {@link failOpenStore} for where it goes when the store has no `add`. */
  add(key: string, add: CounterAdd): Promise<{ added: boolean; total: number }>;
}

/** The store behind its guard ({@link failOpenStore}), the same guard for the same store. */
export function guardStore(store: Store, log: FailOpenOptions['log']): GuardedStore {
  let guarded = guards.get(store);
  if (!guarded) guards.set(store, (guarded = new FailOpenStore(store, { log })));
  return guarded;
}

const isList = (length: number) => (value: unknown) => Array.isArray(value) && value.length === length && value.every((v) => v === null || typeof v === 'string');
const isBoolean = (value: unknown) => typeof value === 'boolean';
const isTakeResult = (value: unknown) => {
  const result = value as { taken?: unknown; waitMs?: unknown } | null;
  return typeof result?.taken === 'boolean' && typeof result.waitMs === 'number' && result.waitMs >= 0;
};
const isAddResult = (value: unknown) => {
  const result = value as { added?: unknown; total?: unknown } | null;
  return typeof result?.added === 'boolean' && typeof result.total === 'number' && Number.isFinite(result.total);
};

/** Why an operation was given up, in a few words for the log line (one line, bounded). */
function reason(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const line = text.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

class FailOpenStore implements GuardedStore {
  readonly #store: Store;
  readonly #fallback: Store;
  readonly #timeoutMs: number;
  readonly #retryMs: number;
  readonly #log: FailOpenOptions['log'];
  /** Where counters go when neither the store nor the fallback has `add`: made on first use. */
  #counters: MemoryStore | undefined;
  #down = false;

  /** Whether the store itself answers now (while it is out, this process's memory does). */
  get reachable(): boolean {
    return !this.#down;
  }
  #checking = false;
  #nextCheck = 0;

  constructor(store: Store, options: FailOpenOptions) {
    this.#store = store;
    this.#fallback = options.fallback ?? new MemoryStore();
    this.#timeoutMs = options.timeoutMs ?? 250;
    this.#retryMs = options.retryMs ?? 1000;
    this.#log = options.log;
  }

  async get(keys: readonly string[]): Promise<(string | null)[]> {
    refuse(keysProblem(keys));
    return this.#run((s) => s.get(keys), isList(keys.length));
  }

  async set(key: string, value: string, options: { ttlMs: number; ifAbsent?: boolean | undefined }): Promise<boolean> {
    refuse(setProblem(key, value, options));
    return this.#run((s) => s.set(key, value, options), isBoolean);
  }

  async delete(keys: readonly string[]): Promise<void> {
    refuse(keysProblem(keys));
    // Whatever a store's delete resolves with is not the caller's business.
    await this.#run((s) => s.delete(keys), () => true);
  }

  async take(key: string, take: { amount: number; perMs: number; capacity: number; maxWaitMs: number }): Promise<{ taken: boolean; waitMs: number }> {
    refuse(takeProblem(key, take));
    return this.#run((s) => s.take(key, take), isTakeResult);
  }

  async add(key: string, add: CounterAdd): Promise<{ added: boolean; total: number }> {
    refuse(addProblem(key, add));
    // A store without add is not down: its counters live in memory, with no warning and no check.
    if (typeof this.#store.add !== 'function') return this.#addTo(this.#fallback, key, add);
    return this.#run((s) => this.#addTo(s, key, add), isAddResult);
  }

  #addTo(store: Store, key: string, add: CounterAdd): Promise<{ added: boolean; total: number }> {
    if (typeof store.add === 'function') return store.add(key, add);
    return (this.#counters ??= new MemoryStore()).add(key, add);
  }

  async #run<T>(op: (store: Store) => Promise<T>, valid: (value: unknown) => boolean): Promise<T> {
    if (this.#down) {
      this.#check();
      return op(this.#fallback);
    }
    try {
      const value = await this.#bounded(op);
      if (valid(value)) return value;
      this.#fail(new TypeError(`the store answered ${typeof value}, not a store's answer`));
    } catch (error) {
      this.#fail(error);
    }
    return op(this.#fallback);
  }

  /**
   * The store's answer, or a rejection once `timeoutMs` passed; the operation's own late
   * outcome is swallowed. A busy process is never taken for a store outage: a timer that fires
   * late (a long synchronous task held the event loop) re-arms once for the time it lost, so an
   * answer that arrived meanwhile, or a command that was still to be written, is read first.
   */
  #bounded<T>(op: (store: Store) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const cancel = patientTimeout(() => reject(new Error(`timed out after ${this.#timeoutMs} ms`)), this.#timeoutMs);
      const settle = <A>(then: (a: A) => void) => (a: A) => {
        cancel();
        then(a);
      };
      try {
        Promise.resolve(op(this.#store)).then(settle(resolve), settle(reject));
      } catch (error) {
        settle(reject)(error);
      }
    });
  }

  #fail(error: unknown): void {
    this.#nextCheck = Date.now() + this.#retryMs;
    if (this.#down) return;
    this.#down = true;
    this.#say('warn', `[unified-gateway] the store is unreachable (${reason(error)}), going on with this process's memory`);
  }

  /** At most one check at a time, `retryMs` apart: a write that, when taken, ends the outage. */
  #check(): void {
    if (this.#checking || Date.now() < this.#nextCheck) return;
    this.#checking = true;
    const done = (answered: boolean) => {
      this.#checking = false;
      if (!answered) {
        this.#nextCheck = Date.now() + this.#retryMs;
        return;
      }
      if (!this.#down) return;
      this.#down = false;
      this.#say('info', '[unified-gateway] the store answers again: state is shared again');
    };
    this.#bounded((s) => s.set(PROBE_KEY, '1', { ttlMs: 1000 })).then(
      (value) => done(value === true),
      () => done(false),
    );
  }

  #say(level: 'warn' | 'info', line: string): void {
    try {
      this.#log(level, line);
    } catch {
      // A throwing logger must not turn the store's outage into the caller's failure.
    }
  }
}
