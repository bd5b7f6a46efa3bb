import { Redis } from 'ioredis';
import { Redis as Redis6 } from 'ioredis6';
import { createClient } from 'redis';
import { createClient as createClient6 } from 'redis6';
import type { RedisClientLike } from '../../src/redis/index.js';

/** A connected client, and how to let it go. */
export interface Connected {
  client: RedisClientLike;
  close: () => void;
}

/**
 * Each Redis library the store supports (node-redis and ioredis, majors 5 and 6: devDependencies
 * `redis`, `ioredis`, and `redis6`/`ioredis6` as npm aliases), and how to connect a client of it.
 * Both libraries emit 'error' on a connection problem, which throws without a listener.
 */
export const redisLibraries: Array<[name: string, connect: (url: string) => Promise<Connected>]> = [
  [
    'node-redis 5',
    async (url) => {
      const client = await createClient({ url }).on('error', () => {}).connect();
      return { client, close: () => client.destroy() };
    },
  ],
  [
    'ioredis 5',
    async (url) => {
      const client = new Redis(url, { lazyConnect: true });
      client.on('error', () => {});
      await client.connect();
      return { client, close: () => client.disconnect() };
    },
  ],
  [
    'node-redis 6',
    async (url) => {
      const client = await createClient6({ url }).on('error', () => {}).connect();
      return { client, close: () => client.destroy() };
    },
  ],
  [
    'ioredis 6',
    async (url) => {
      const client = new Redis6(url, { lazyConnect: true });
      client.on('error', () => {});
      await client.connect();
      return { client, close: () => client.disconnect() };
    },
  ],
];
