import { Cluster, Redis } from 'ioredis';
import { Cluster as Cluster6, Redis as Redis6 } from 'ioredis6';
import { createClient, createCluster } from 'redis';
import { createClient as createClient6, createCluster as createCluster6 } from 'redis6';
import type { RedisClientLike } from '../../src/redis/index.js';
import { afterAll, beforeAll } from 'vitest';
import type { ClusterNode } from './redis-cluster.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

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

/**
 * The same libraries' cluster clients (node-redis `createCluster`, ioredis `Cluster`), and how to
 * connect one to a cluster given its nodes (each finds the others from the first it reaches).
 */
export const redisClusterLibraries: Array<[name: string, connect: (nodes: ClusterNode[]) => Promise<Connected>]> = [
  [
    'node-redis 5 createCluster',
    async (nodes) => {
      const client = await createCluster({ rootNodes: nodes.map((n) => ({ url: `redis://${n.host}:${n.port}` })) }).on('error', () => {}).connect();
      return { client, close: () => client.destroy() };
    },
  ],
  [
    'ioredis 5 Cluster',
    async (nodes) => {
      const client = new Cluster(nodes, { lazyConnect: true });
      client.on('error', () => {});
      await client.connect();
      return { client, close: () => client.disconnect() };
    },
  ],
  [
    'node-redis 6 createCluster',
    async (nodes) => {
      const client = await createCluster6({ rootNodes: nodes.map((n) => ({ url: `redis://${n.host}:${n.port}` })) }).on('error', () => {}).connect();
      return { client, close: () => client.destroy() };
    },
  ],
  [
    'ioredis 6 Cluster',
    async (nodes) => {
      const client = new Cluster6(nodes, { lazyConnect: true });
      client.on('error', () => {});
      await client.connect();
      return { client, close: () => client.disconnect() };
    },
  ],
];

/**
 * For the enclosing describe: a redis-server started before its tests and stopped after, with
 * a client of every library in `redisLibraries` connected to it (in that order).
 */
export function useRedisClients(): Connected[] {
  let server: RedisServer | undefined;
  const connected: Connected[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
    for (const [, connect] of redisLibraries) connected.push(await connect(server.url));
  }, 30_000);
  afterAll(async () => {
    for (const { close } of connected) close();
    await server?.stop();
  }, 10_000);
  return connected;
}
