import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { describe, it } from 'vitest';
import { exited, freePort, INSTALL_HINT, launch, redisServerPath } from './redis-server.js';

// A real Redis Cluster for the store's tests: three masters (no replicas) of Debian's
// redis-server on free 127.0.0.1 ports, joined by `redis-cli --cluster create` (redis-cli comes
// with redis-server: Debian's package depends on redis-tools), saving nothing, stopped after.
// Each node is given its cluster bus port too (--cluster-port, Redis 7): the default, port +
// 10000, may be taken or past 65535. REDIS_CLI names another redis-cli.

/** redis-cli: $REDIS_CLI, else the one beside redis-server, else the first on PATH; undefined when there is none. */
export const redisCliPath: string | undefined = (() => {
  const named = process.env.REDIS_CLI;
  if (named !== undefined) return existsSync(named) ? named : undefined;
  const dirs = [...(redisServerPath ? [dirname(redisServerPath)] : []), ...(process.env.PATH ?? '').split(delimiter)];
  return dirs.map((dir) => join(dir, 'redis-cli')).find((file) => existsSync(file));
})();

const CLI_HINT = 'redis-cli is not installed: apt-get install redis-tools (Debian, Ubuntu; redis-server depends on it), brew install redis (macOS), or set REDIS_CLI to its path';

/**
 * `describe` for tests that need a Redis Cluster (redis-server and redis-cli). As
 * `describeWithRedis`: without them the tests are skipped with a message on stderr, except
 * where `CI` is set, where a missing binary fails the run with the hint.
 */
export function describeWithRedisCluster(name: string, body: () => void): void {
  const missing = !redisServerPath ? INSTALL_HINT : !redisCliPath ? CLI_HINT : undefined;
  if (!missing) return void describe(name, body);
  if (process.env.CI) {
    return void describe(name, () => {
      it('has redis-server and redis-cli to run a cluster with', () => {
        throw new Error(missing);
      });
    });
  }
  console.warn(`[skipped] ${name}: ${missing}`);
  describe.skip(name, body);
}

/** A node of the cluster: a master on 127.0.0.1. */
export interface ClusterNode {
  host: '127.0.0.1';
  port: number;
}

/** A Redis Cluster of this test file. */
export interface RedisCluster {
  /** The three masters, in the order `redis-cli --cluster create` was given them (slots 0-5460, 5461-10922, 10923-16383). */
  nodes: ClusterNode[];
  /** Shuts every node down (SIGTERM, then SIGKILL after 3 s) and removes their directory. */
  stop(): Promise<void>;
}

/** Runs redis-cli with `args`, killed after `limitMs`; resolves with what it printed, rejects when it fails. */
export function redisCli(args: string[], limitMs = 5000): Promise<string> {
  const cli = redisCliPath;
  if (!cli) return Promise.reject(new Error(CLI_HINT));
  return new Promise((resolve, reject) => {
    execFile(cli, args, { timeout: limitMs, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`redis-cli ${args.join(' ')} failed: ${error.message}\n${stdout}${stderr}`));
      else resolve(stdout);
    });
  });
}

/** True when CLUSTER INFO on `port` says the cluster is up (every slot served). */
async function clusterOk(port: number): Promise<boolean> {
  try {
    return /^cluster_state:ok\r?$/m.test(await redisCli(['-h', '127.0.0.1', '-p', String(port), 'CLUSTER', 'INFO'], 2000));
  } catch {
    return false;
  }
}

const stopAll = async (children: ChildProcess[]) => {
  for (const child of children) child.kill('SIGTERM');
  for (const child of children) {
    if (!(await exited(child, 3000))) {
      child.kill('SIGKILL');
      await exited(child, 3000);
    }
  }
};

/** Starts a 3-master Redis Cluster on free 127.0.0.1 ports and waits (20 s at most) until every node says cluster_state:ok. */
export async function startRedisCluster(): Promise<RedisCluster> {
  const binary = redisServerPath;
  if (!binary) throw new Error(INSTALL_HINT);
  const dir = mkdtempSync(join(tmpdir(), 'ug-redis-cluster-'));
  const children: ChildProcess[] = [];
  const nodes: ClusterNode[] = [];
  const taken = new Set<number>();
  /** A free port none of this cluster's nodes was given yet. */
  const unused = async () => {
    for (let tries = 0; tries < 5; tries++) {
      const port = await freePort();
      if (!taken.has(port)) return taken.add(port), port;
    }
    throw new Error('no free port after 5 tries');
  };
  try {
    for (let i = 0; i < 3; i++) {
      // Another process may take a free port before redis-server binds it: try a few.
      for (let tries = 0; ; tries++) {
        const [port, bus] = [await unused(), await unused()];
        const extra = ['--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${port}.conf`), '--cluster-port', String(bus)];
        try {
          children.push(await launch(binary, port, dir, extra));
          nodes.push({ host: '127.0.0.1', port });
          break;
        } catch (error) {
          if (tries === 2) throw error;
        }
      }
    }
    await redisCli(['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '0', '--cluster-yes'], 30_000);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const states = await Promise.all(nodes.map((n) => clusterOk(n.port)));
      if (states.every(Boolean)) break;
      if (Date.now() > deadline) throw new Error(`the cluster did not reach cluster_state:ok in 20 s (nodes ${nodes.map((n) => n.port).join(', ')}: ${states.join(', ')})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    await stopAll(children);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    nodes,
    stop: async () => {
      await stopAll(children.splice(0));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
