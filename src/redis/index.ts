// Types by the package's name, so the declarations refer to the root's Store rather than
// carry a copy; values by path, which the build turns into the same name (tsup.config.ts).
import type { Store } from 'unified-gateway';
import { ValidationError } from '../index.js';
import { addProblem, keysProblem, setProblem, takeProblem, type StoreProblem } from '../core/store/store-rules.js';
import { isRecord } from '../internal/is-record.js';
import { ADD_SCRIPT } from './add-script.js';
import { BUCKET_SCRIPT } from './bucket-script.js';
import { keySlot } from './key-slot.js';

/**
 * An ioredis client (5 or 6), `new Redis()` or `new Cluster()`, as far as the store uses it:
 * `call(command, ...args)`. ioredis sets `isCluster` on both (true on a `Cluster`), which is how
 * the store tells them apart. Declared here so that this entry's types need nothing of ioredis.
 */
export interface IORedisClientLike {
  call(command: string, ...args: string[]): Promise<unknown>;
}

/**
 * A node-redis client (`createClient()` from `redis`, 5 or 6), as far as the store uses it:
 * `sendCommand([command, ...args])`. Declared here so that this entry's types need nothing of
 * node-redis.
 */
export interface NodeRedisClientLike {
  sendCommand(args: string[]): Promise<unknown>;
}

/**
 * A node-redis cluster client (`createCluster()` from `redis`, 5 or 6), as far as the store uses
 * it: `sendCommand(firstKey, isReadonly, [command, ...args])`, routed by `firstKey`. The store
 * tells it from a `createClient()` client by its `nodeClient()` method.
 */
export interface NodeRedisClusterLike {
  sendCommand(firstKey: string | undefined, isReadonly: boolean | undefined, args: string[]): Promise<unknown>;
}

/** A connected client of either library, one server's or a cluster's; which one is found out by its shape. */
export type RedisClientLike = IORedisClientLike | NodeRedisClientLike | NodeRedisClusterLike;

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /** Put before every key, with a colon: `ug:<key>`. Separates this SDK's keys from the app's. @default 'ug' */
  prefix?: string | undefined;
}

const refuse = (problem: StoreProblem | undefined): void => {
  if (problem) throw new ValidationError(...problem);
};

/** How commands reach Redis through the client given, found once from its shape. */
interface Link {
  /** Sends one command naming `key` (a cluster client routes it to that key's node); `readonly` when it only reads. */
  send(command: string, args: string[], key: string, readonly: boolean): Promise<unknown>;
  /**
   * The cluster slot of a key as the store names it, on a cluster; undefined on one server,
   * where one command takes keys of any slot.
   */
  slot: ((name: string) => number) | undefined;
}

const TAKES = 'must be a connected client of node-redis (createClient() or createCluster() from "redis") or of ioredis (new Redis() or new Cluster()), major 5 or 6';

interface AnyClient {
  call?: unknown;
  sendCommand?: unknown;
  isCluster?: unknown;
  nodeClient?: unknown;
  getMasterNode?: unknown;
  getSentinelNode?: unknown;
  options?: { keyPrefix?: unknown } | null;
}

/**
 * The client's kind, by its shape: ioredis has `call` (and a `sendCommand` that takes its own
 * Command objects, so `call` is looked for first) and `isCluster`, true on a `Cluster`;
 * node-redis has `sendCommand`, whose arguments differ between `createClient()` (the command),
 * `createCluster()` (a key to route by, then the command; it alone has `nodeClient()`) and
 * `createSentinel()` (a read-only flag first; it alone has `getMasterNode()`). A function or
 * anything else is refused.
 */
function linkOf(client: unknown): Link {
  if (typeof client !== 'object' || client === null) throw new ValidationError('client', TAKES);
  const c = client as AnyClient;
  if (typeof c.call === 'function') {
    const call = c.call as (command: string, ...args: string[]) => Promise<unknown>;
    const send = (command: string, args: string[]) => call.call(client, command, ...args);
    if (c.isCluster !== true) return { send, slot: undefined };
    // ioredis puts its own keyPrefix before every key it sends, and routes by the slot of the
    // name with it: group by that name too.
    const keyPrefix = c.options?.keyPrefix;
    const before = typeof keyPrefix === 'string' ? keyPrefix : keyPrefix instanceof Uint8Array ? new TextDecoder().decode(keyPrefix) : '';
    return { send, slot: (name) => keySlot(before + name) };
  }
  if (typeof c.sendCommand === 'function') {
    const sendCommand = c.sendCommand as (...args: unknown[]) => Promise<unknown>;
    if (typeof c.nodeClient === 'function') {
      return { send: (command, args, key, readonly) => sendCommand.call(client, key, readonly, [command, ...args]), slot: keySlot };
    }
    if (typeof c.getMasterNode === 'function' && typeof c.getSentinelNode === 'function') {
      throw new ValidationError('client', `is a node-redis Sentinel client (createSentinel()), which redisStore does not take: give it an ioredis client with \`sentinels\`, or one of ${TAKES.slice('must be a connected client of '.length)}`);
    }
    return { send: (command, args) => sendCommand.call(client, [command, ...args]), slot: undefined };
  }
  throw new ValidationError('client', TAKES);
}

/** The prefix `options` ask for, after checking them: a misspelt option would otherwise be ignored. */
function prefixOf(options: unknown): string {
  if (options === undefined) return 'ug';
  if (!isRecord(options)) throw new ValidationError('options', "must be an object such as { prefix: 'ug' }");
  for (const key of Object.keys(options)) {
    if (key !== 'prefix') throw new ValidationError(key, 'is not an option of redisStore() (it takes prefix)');
  }
  const { prefix } = options;
  if (prefix === undefined) return 'ug';
  if (typeof prefix !== 'string' || prefix === '') throw new ValidationError('prefix', 'must be a non-empty string');
  return prefix;
}

/** The indexes of `names`, grouped by slot. */
function bySlot(names: string[], slot: (name: string) => number): number[][] {
  const groups = new Map<number, number[]>();
  names.forEach((name, i) => {
    const s = slot(name);
    const group = groups.get(s);
    if (group) group.push(i);
    else groups.set(s, [i]);
  });
  return [...groups.values()];
}

/** An MGET reply of `n` values, checked. */
function values(reply: unknown, n: number): unknown[] {
  if (!Array.isArray(reply) || reply.length !== n) throw new TypeError(`MGET answered ${typeof reply}, not ${n} values`);
  return reply;
}

/** A bulk reply as a string: clients configured to map replies to Buffers give bytes. */
function text(reply: unknown): string | null {
  if (reply === null || reply === undefined) return null;
  if (typeof reply === 'string') return reply;
  if (reply instanceof Uint8Array) return new TextDecoder().decode(reply);
  return String(reply);
}

/** The SHA-1 EVALSHA names the script by, or undefined where crypto.subtle is missing (then EVAL always). */
async function scriptSha(script: string): Promise<string | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined;
  const digest = new Uint8Array(await subtle.digest('SHA-1', new TextEncoder().encode(script)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

const isNoScript = (error: unknown) => /^NOSCRIPT/.test(String((error as { message?: unknown } | null)?.message));

/**
 * A {@link Store} in Redis, shared by every process that uses the same Redis and prefix:
 * failover health, pauses, quota and rate budgets of the whole fleet. Takes a connected
 * client of node-redis (`redis`) or ioredis, 5 or 6, whichever the app has, of one server or of
 * a Redis Cluster; this entry imports neither. Which kind the client is, it finds out here from
 * its shape: ioredis's `isCluster` (true on a `Cluster`), node-redis's `nodeClient()` (a
 * `createCluster()` client's alone); anything else is refused with a `ValidationError`. Each
 * change is one atomic command: `SET … PX [NX]`, `DEL`, the rate bucket as a Lua script on
 * the server's clock, and `add`'s counter as another (each by `EVALSHA`, or `EVAL` when the
 * server does not have the script yet; one key per script, so any cluster node runs it). On a
 * cluster, a `get` or `delete` of keys in several slots sends one `MGET` or `DEL` per slot, at
 * once; keys of one hash tag (`{tag}`) share a slot, so one command. Needs Redis 5 or later.
 * @example
 * import { createClient } from 'redis';
 * import { redisStore } from 'unified-gateway/redis';
 * // node-redis emits 'error' while Redis is away; with no listener, Node ends the process.
 * const redis = await createClient({ url: process.env.REDIS_URL })
 *   .on('error', (error) => console.warn('redis:', error.message))
 *   .connect();
 * const store = redisStore(redis, { prefix: 'ug' });
 * @example
 * // A Redis Cluster: node-redis's createCluster(), or ioredis's Cluster.
 * import { createCluster } from 'redis';
 * import { Cluster } from 'ioredis';
 * import { redisStore } from 'unified-gateway/redis';
 * const cluster = await createCluster({ rootNodes: [{ url: 'redis://10.0.0.1:6379' }] })
 *   .on('error', (error) => console.warn('redis:', error.message))
 *   .connect();
 * const store = redisStore(cluster);
 * // ioredis connects as it is made: listen at once.
 * const io = new Cluster([{ host: '10.0.0.1', port: 6379 }]).on('error', (error) => console.warn('redis:', error.message));
 * const sameStore = redisStore(io);
 */
export function redisStore(client: RedisClientLike, options?: RedisStoreOptions): Store {
  const { send, slot } = linkOf(client);
  const prefix = prefixOf(options);
  const name = (key: string) => `${prefix}:${key}`;
  const shas = new Map<string, Promise<string | undefined>>();

  /** Runs `script` on its one key, `key` (a full name: the node of its slot, on a cluster). */
  const runScript = async (script: string, key: string, args: string[]): Promise<unknown> => {
    let sha = shas.get(script);
    if (!sha) shas.set(script, (sha = scriptSha(script)));
    const known = await sha;
    const keyed = ['1', key, ...args];
    if (known === undefined) return send('EVAL', [script, ...keyed], key, false);
    try {
      return await send('EVALSHA', [known, ...keyed], key, false);
    } catch (error) {
      // The server does not have the script (first use, a restart, SCRIPT FLUSH; on a cluster,
      // each node keeps its own): EVAL sends it whole and caches it there.
      if (!isNoScript(error)) throw error;
      return send('EVAL', [script, ...keyed], key, false);
    }
  };

  return {
    async get(keys) {
      refuse(keysProblem(keys));
      if (keys.length === 0) return [];
      const names = keys.map(name);
      // `readonly`: a cluster client set to read from replicas may send it to one.
      if (!slot) return values(await send('MGET', names, names[0] as string, true), names.length).map(text);
      const found: (string | null)[] = new Array(names.length).fill(null);
      await Promise.all(
        bySlot(names, slot).map(async (indexes) => {
          const group = indexes.map((i) => names[i] as string);
          values(await send('MGET', group, group[0] as string, true), group.length).forEach((value, j) => (found[indexes[j] as number] = text(value)));
        }),
      );
      return found;
    },
    async set(key, value, options) {
      refuse(setProblem(key, value, options));
      const args = [name(key), value, 'PX', String(Math.ceil(options.ttlMs))];
      if (options.ifAbsent === true) args.push('NX');
      return text(await send('SET', args, args[0] as string, false)) === 'OK';
    },
    async delete(keys) {
      refuse(keysProblem(keys));
      if (keys.length === 0) return;
      const names = keys.map(name);
      if (!slot) return void (await send('DEL', names, names[0] as string, false));
      await Promise.all(
        bySlot(names, slot).map((indexes) => {
          const group = indexes.map((i) => names[i] as string);
          return send('DEL', group, group[0] as string, false);
        }),
      );
    },
    async take(key, take) {
      refuse(takeProblem(key, take));
      const maxWaitMs = Math.min(take.maxWaitMs, Number.MAX_VALUE);
      const reply = await runScript(BUCKET_SCRIPT, name(key), [String(take.amount), String(take.perMs), String(take.capacity), String(maxWaitMs)]);
      if (!Array.isArray(reply) || reply.length !== 2) throw new TypeError(`the bucket script answered ${typeof reply}, not [taken, waitMs]`);
      return { taken: Number(reply[0]) === 1, waitMs: Number(text(reply[1])) };
    },
    async add(key, add) {
      refuse(addProblem(key, add));
      const limit = add.limit === undefined ? 'inf' : String(add.limit);
      const reply = await runScript(ADD_SCRIPT, name(key), [String(add.amount), limit, String(add.ttlMs)]);
      if (!Array.isArray(reply) || reply.length !== 2) throw new TypeError(`the counter script answered ${typeof reply}, not [added, total]`);
      return { added: Number(reply[0]) === 1, total: Number(text(reply[1])) };
    },
  };
}
