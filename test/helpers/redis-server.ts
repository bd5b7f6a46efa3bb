import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, it } from 'vitest';

// A real Redis for the store's tests: Debian's `redis-server` (apt-get install redis-server;
// .ci/run installs it), started per test file on a free loopback port without persistence,
// and stopped after it. REDIS_SERVER names another binary.

/** The redis-server binary: $REDIS_SERVER, else the first on PATH; undefined when there is none. */
export const redisServerPath: string | undefined = (() => {
  const named = process.env.REDIS_SERVER;
  if (named !== undefined) return existsSync(named) ? named : undefined;
  return (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'redis-server'))
    .find((file) => existsSync(file));
})();

export const INSTALL_HINT = 'redis-server is not installed: apt-get install redis-server (Debian, Ubuntu), brew install redis (macOS), or set REDIS_SERVER to its path';

/**
 * `describe` for tests that need redis-server. Without it they are skipped with a message
 * on stderr, except where `CI` is set: there a missing server fails the run with the hint.
 */
export function describeWithRedis(name: string, body: () => void): void {
  if (redisServerPath) return void describe(name, body);
  if (process.env.CI) {
    return void describe(name, () => {
      it('has redis-server to run against', () => {
        throw new Error(INSTALL_HINT);
      });
    });
  }
  console.warn(`[skipped] ${name}: ${INSTALL_HINT}`);
  describe.skip(name, body);
}

/** A redis-server of this test file. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Shuts it down (SIGTERM, then SIGKILL after 3 s) and removes its directory. */
  stop(): Promise<void>;
  /** Kills it at once (SIGKILL), as a crash would; `restart()` brings it back on the same port. */
  kill(): Promise<void>;
  /** Starts it again on the same port (killing it first if it runs) and waits until it answers. */
  restart(): Promise<void>;
}

const running = new Set<ChildProcess>();
// The last resort, should a test file end without its afterAll: no server outlives the worker.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** A port nobody listens on now: bind port 0, note it, release it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** True when a PING on `port` is answered +PONG within `limitMs`. */
function pong(port: number, limitMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), limitMs);
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d: Buffer) => {
      reply += d.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
    socket.on('error', () => done(false));
  });
}

/** Resolves when `child` has exited, or after `limitMs` (false then). */
export function exited(child: ChildProcess, limitMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), limitMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Spawns redis-server on `port` (with `extra` arguments) and waits (5 s at most) until it answers PING. */
export async function launch(binary: string, port: number, dir: string, extra: string[] = []): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--loglevel', 'warning', ...extra];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    if (await pong(port, 500)) return child;
    await new Promise((r) => setTimeout(r, 25));
  }
  child.kill('SIGKILL');
  await exited(child, 3000);
  throw new Error(`redis-server did not answer PING on 127.0.0.1:${port}:\n${output}`);
}

/** Starts a redis-server on a free 127.0.0.1 port, in a temporary directory, saving nothing. */
export async function startRedisServer(): Promise<RedisServer> {
  const binary = redisServerPath;
  if (!binary) throw new Error(INSTALL_HINT);
  const dir = mkdtempSync(join(tmpdir(), 'ug-redis-'));
  let port = 0;
  let child: ChildProcess | undefined;
  // Another process may take the free port before redis-server binds it: try a few.
  for (let tries = 0; !child; tries++) {
    port = await freePort();
    try {
      child = await launch(binary, port, dir);
    } catch (error) {
      if (tries === 2) throw error;
    }
  }
  const end = async (signal: NodeJS.Signals) => {
    const current = child;
    child = undefined;
    if (!current) return;
    current.kill(signal);
    if (!(await exited(current, 3000))) {
      current.kill('SIGKILL');
      await exited(current, 3000);
    }
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: async () => {
      await end('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
    kill: () => end('SIGKILL'),
    restart: async () => {
      await end('SIGKILL');
      child = await launch(binary, port, dir);
    },
  };
}
