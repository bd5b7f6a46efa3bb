// Types by the package's name, so the declarations refer to the root's Store rather than
// carry a copy; values by path, which the build turns into the same name (tsup.config.ts).
import type { Store } from 'unified-gateway';
import { ValidationError } from '../index.js';
import { keysProblem, setProblem, takeProblem, type StoreProblem } from '../core/store/store-rules.js';
import { BUCKET_SCRIPT } from './bucket-script.js';

/**
 * An ioredis client (5 or 6), as far as the store uses it: `call(command, ...args)`. Declared here
 * so that this entry's types need nothing of ioredis.
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

/** A connected client of either library; which one is found out at run time. */
export type RedisClientLike = IORedisClientLike | NodeRedisClientLike;

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /** Put before every key, with a colon: `ug:<key>`. Separates this SDK's keys from the app's. @default 'ug' */
  prefix?: string | undefined;
}

const refuse = (problem: StoreProblem | undefined): void => {
  if (problem) throw new ValidationError(...problem);
};

/** Sends one command; the reply as the client gave it. */
type Send = (command: string, args: string[]) => Promise<unknown>;

function senderOf(client: unknown): Send | undefined {
  const c = client as Partial<IORedisClientLike & NodeRedisClientLike> | null;
  // ioredis has both methods (its sendCommand takes a Command object): look for `call` first.
  if (typeof c?.call === 'function') return (command, args) => (c as IORedisClientLike).call(command, ...args);
  if (typeof c?.sendCommand === 'function') return (command, args) => (c as NodeRedisClientLike).sendCommand([command, ...args]);
  return undefined;
}

/** A bulk reply as a string: clients configured to map replies to Buffers give bytes. */
function text(reply: unknown): string | null {
  if (reply === null || reply === undefined) return null;
  if (typeof reply === 'string') return reply;
  if (reply instanceof Uint8Array) return new TextDecoder().decode(reply);
  return String(reply);
}

/** The SHA-1 EVALSHA names the script by, or undefined where crypto.subtle is missing (then EVAL always). */
async function scriptSha(): Promise<string | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined;
  const digest = new Uint8Array(await subtle.digest('SHA-1', new TextEncoder().encode(BUCKET_SCRIPT)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

const isNoScript = (error: unknown) => /^NOSCRIPT/.test(String((error as { message?: unknown } | null)?.message));

/**
 * A {@link Store} in Redis, shared by every process that uses the same server and prefix:
 * failover health, pauses, quota and rate budgets of the whole fleet. Takes a connected
 * client of node-redis (`redis`) or ioredis, 5 or 6, whichever the app has; this entry imports
 * neither. Each change is one atomic command: `SET … PX [NX]`, `DEL`, and the rate bucket as
 * a Lua script on the server's clock (`EVALSHA`, or `EVAL` when the server does not have the
 * script yet). Needs Redis 5 or later; a Redis Cluster is not supported.
 * @example
 * import { createClient } from 'redis';
 * import { redisStore } from 'unified-gateway/redis';
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const store = redisStore(redis, { prefix: 'ug' });
 */
export function redisStore(client: RedisClientLike, options: RedisStoreOptions = {}): Store {
  const send = senderOf(client);
  if (!send) throw new ValidationError('client', 'must be a connected node-redis client (createClient() from "redis", 5 or 6) or an ioredis client (5 or 6)');
  const prefix = options.prefix ?? 'ug';
  if (typeof prefix !== 'string' || prefix === '') throw new ValidationError('prefix', 'must be a non-empty string');
  const name = (key: string) => `${prefix}:${key}`;
  let sha: Promise<string | undefined> | undefined;

  const runBucket = async (args: string[]): Promise<unknown> => {
    const known = await (sha ??= scriptSha());
    if (known === undefined) return send('EVAL', [BUCKET_SCRIPT, ...args]);
    try {
      return await send('EVALSHA', [known, ...args]);
    } catch (error) {
      // The server does not have the script (first use, a restart, SCRIPT FLUSH): EVAL sends
      // it whole and caches it there.
      if (!isNoScript(error)) throw error;
      return send('EVAL', [BUCKET_SCRIPT, ...args]);
    }
  };

  return {
    async get(keys) {
      refuse(keysProblem(keys));
      if (keys.length === 0) return [];
      const reply = await send('MGET', keys.map(name));
      if (!Array.isArray(reply) || reply.length !== keys.length) throw new TypeError(`MGET answered ${typeof reply}, not ${keys.length} values`);
      return reply.map(text);
    },
    async set(key, value, options) {
      refuse(setProblem(key, value, options));
      const args = [name(key), value, 'PX', String(Math.ceil(options.ttlMs))];
      if (options.ifAbsent === true) args.push('NX');
      return text(await send('SET', args)) === 'OK';
    },
    async delete(keys) {
      refuse(keysProblem(keys));
      if (keys.length > 0) await send('DEL', keys.map(name));
    },
    async take(key, take) {
      refuse(takeProblem(key, take));
      const maxWaitMs = Math.min(take.maxWaitMs, Number.MAX_VALUE);
      const reply = await runBucket(['1', name(key), String(take.amount), String(take.perMs), String(take.capacity), String(maxWaitMs)]);
      if (!Array.isArray(reply) || reply.length !== 2) throw new TypeError(`the bucket script answered ${typeof reply}, not [taken, waitMs]`);
      return { taken: Number(reply[0]) === 1, waitMs: Number(text(reply[1])) };
    },
  };
}
