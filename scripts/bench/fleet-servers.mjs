// What `npm run bench:fleet` runs against: two small gateways (node:http on 127.0.0.1) whose
// behaviour the run switches while the fleet calls them, and one redis-server on a free
// loopback port. Both count everything they see; nothing here decides a result.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createConnection, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

const json = (value) => JSON.stringify(value);

/** The tokens each completion's usage says it took (limits reconcile their estimate with it). */
export const USAGE_TOKENS = 10;

/** A chat completion as the gateway sends it, with usage (limits reconcile tokens from it). */
const completion = (model) =>
  json({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: 'pong' }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 },
  });

// The error bodies as OpenAI-compatible gateways send them (REALITIES.md).
const quotaBody = json({ error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } });
const rateBody = (model) => json({ error: { message: `Rate limit reached for ${model}.`, type: 'requests', param: null, code: 'rate_limit_exceeded' } });
const unavailableBody = json({ error: { message: 'upstream unavailable', type: 'server_error', param: null, code: null } });

/**
 * A gateway on 127.0.0.1 that answers `POST /v1/chat/completions` and logs every request
 * (time, model, the instance's `x-bench-instance` header, status, the tokens its usage
 * says, and `cut` when the client closed the connection before the answer). Its `mode`:
 * - `ok`: 200 with a completion, after `delayMs` (0 unless set);
 * - `blackhole`: accepts the request and never answers (until the mode changes);
 * - `refuse`: not listening at all: connections are refused (`setMode`, awaited; any
 *   other mode listens again on the same port);
 * - `quota`: 429 `insufficient_quota`;
 * - `unavailable`: 503.
 * `pause({ model, armAt, ms, retryAfter })`: the first request for `model` at or after
 * `armAt` opens a window of `ms` in which every request for that model gets 429, with
 * `Retry-After` (the seconds left, rounded up) unless `retryAfter` is false, as a rate
 * limiter does; other models are served.
 * `failOnce({ model, armAt, status })`: the first request for `model` at or after `armAt`
 * gets `status` at once (a 500: one request's upstream failed); the rest are served.
 */
export async function startGateway(name) {
  // `held`: the blackholed requests, each with its log entry.
  const state = { mode: 'ok', pause: undefined, failOnce: undefined, delayMs: 0, log: [], held: new Map() };
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    let model;
    try {
      model = JSON.parse(Buffer.concat(chunks).toString()).model;
    } catch {
      model = undefined;
    }
    const now = Date.now();
    const entry = { t: now, model, instance: Number(req.headers['x-bench-instance'] ?? -1), status: 0, tokens: 0 };
    state.log.push(entry);
    // The client gave up on this request before it was answered (a timeout, an abort).
    res.on('close', () => {
      if (!res.writableFinished && !entry.released) entry.cut = true;
    });
    const send = (status, body, headers = {}) => {
      if (res.destroyed) return;
      entry.status = status;
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
    };
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(404, json({ error: { message: `Unknown request URL: ${req.method} ${req.url}.`, type: 'invalid_request_error', code: 'unknown_url' } }));
    if (state.mode === 'blackhole') {
      state.held.set(res, entry);
      res.on('close', () => state.held.delete(res));
      return undefined;
    }
    if (state.mode === 'quota') return send(429, quotaBody);
    if (state.mode === 'unavailable') return send(503, unavailableBody);
    const pause = state.pause;
    if (pause && model === pause.model && now >= pause.armAt) {
      pause.from ??= now;
      const left = pause.from + pause.ms - now;
      if (left > 0) return send(429, rateBody(model), pause.retryAfter === false ? {} : { 'retry-after': String(Math.ceil(left / 1000)) });
    }
    const once = state.failOnce;
    if (once && !once.at && model === once.model && now >= once.armAt) {
      once.at = now;
      return send(once.status, unavailableBody);
    }
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    entry.tokens = USAGE_TOKENS;
    return send(200, completion(model));
  });
  server.keepAliveTimeout = 5_000;
  const listen = (port) =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const { port } = server.address();
  const release = () => {
    for (const [res, entry] of state.held) {
      entry.released = true;
      res.destroy();
    }
  };
  return {
    name,
    url: `http://127.0.0.1:${port}/v1`,
    state,
    get log() {
      return state.log;
    },
    /** A mode that needs no change to the listener (not `refuse`, nor from it). */
    set mode(mode) {
      if (mode === 'refuse' || state.mode === 'refuse') throw new Error('use await setMode() to refuse connections or to stop refusing them');
      state.mode = mode;
      if (mode !== 'blackhole') release();
    },
    get mode() {
      return state.mode;
    },
    /** Any mode, `refuse` included: the listener closed (every connection cut), or open again on the same port. */
    async setMode(mode) {
      if (mode === 'refuse' && state.mode !== 'refuse') {
        state.mode = 'refuse';
        release();
        const closed = new Promise((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        return;
      }
      if (mode !== 'refuse' && state.mode === 'refuse') {
        await listen(port);
        state.mode = mode;
        return;
      }
      this.mode = mode;
    },
    set delayMs(ms) {
      state.delayMs = ms;
    },
    pause(pause) {
      state.pause = { ...pause, from: undefined };
    },
    failOnce(once) {
      state.failOnce = { ...once, at: undefined };
    },
    /** Back to `ok` (listening), its log, pause, failure and delay cleared, held requests dropped. */
    async reset() {
      await this.setMode('ok');
      state.pause = undefined;
      state.failOnce = undefined;
      state.delayMs = 0;
      state.log = [];
    },
    async close() {
      release();
      if (state.mode === 'refuse') return;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The redis-server binary: $REDIS_SERVER, else the first on PATH; undefined when there is none. */
export const redisServerPath = (() => {
  const named = process.env.REDIS_SERVER;
  if (named !== undefined) return existsSync(named) ? named : undefined;
  return (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'redis-server'))
    .find((file) => existsSync(file));
})();

/** redis-cli: $REDIS_CLI, else the one beside redis-server, else the first on PATH; undefined when there is none. */
export const redisCliPath = (() => {
  const named = process.env.REDIS_CLI;
  if (named !== undefined) return existsSync(named) ? named : undefined;
  const dirs = [...(redisServerPath ? [dirname(redisServerPath)] : []), ...(process.env.PATH ?? '').split(delimiter)];
  return dirs.map((dir) => join(dir, 'redis-cli')).find((file) => existsSync(file));
})();

/** Runs redis-cli with `args`, killed after `limitMs`; resolves with what it printed. */
export function redisCli(args, limitMs = 5_000) {
  if (!redisCliPath) return Promise.reject(new Error('redis-cli is not installed (it comes with redis-server: apt-get install redis-tools), or set REDIS_CLI'));
  return new Promise((resolve, reject) => {
    execFile(redisCliPath, args, { timeout: limitMs, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`redis-cli ${args.join(' ')} failed: ${error.message}\n${stdout}${stderr}`));
      else resolve(stdout);
    });
  });
}

/** The calls of each command a server has run since it started (`INFO commandstats`), by command name. */
export async function commandStats(port) {
  const text = await redisCli(['-h', '127.0.0.1', '-p', String(port), 'INFO', 'commandstats']);
  const calls = {};
  for (const [, name, n] of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls[name] = Number(n);
  return calls;
}

/** A port nobody listens on now: bind port 0, note it, release it. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** True when a PING on `port` is answered +PONG within `limitMs`. */
function pong(port, limitMs) {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), limitMs);
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      reply += d.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
    socket.on('error', () => done(false));
  });
}

function exited(child, limitMs) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), limitMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Starts redis-server on a free 127.0.0.1 port, saving nothing (`--save '' --appendonly no`),
 * with `extra` arguments (`--replicaof 127.0.0.1 <port>`: a read-only replica of that server).
 * `kill()` is a crash (SIGKILL); `restart()` brings it back, empty, on the same port;
 * `stop()` ends it and removes its directory; `killNow()` is for exit handlers (synchronous).
 */
export async function startRedis(extra = []) {
  const dir = mkdtempSync(join(tmpdir(), 'ug-bench-redis-'));
  let child;
  let port = 0;
  const launch = async () => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--loglevel', 'warning', ...extra];
    const started = spawn(redisServerPath, args, { stdio: 'ignore' });
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && started.exitCode === null && started.signalCode === null) {
      if (await pong(port, 500)) return started;
      await new Promise((r) => setTimeout(r, 25));
    }
    started.kill('SIGKILL');
    await exited(started, 3_000);
    throw new Error(`redis-server did not answer PING on 127.0.0.1:${port}`);
  };
  // Another process may take the free port before redis-server binds it: try a few.
  for (let tries = 0; !child; tries++) {
    port = await freePort();
    try {
      child = await launch();
    } catch (error) {
      if (tries === 2) throw error;
    }
  }
  const end = async (signal) => {
    const current = child;
    child = undefined;
    if (!current) return;
    current.kill(signal);
    if (!(await exited(current, 3_000))) {
      current.kill('SIGKILL');
      await exited(current, 3_000);
    }
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    version: spawnSync(redisServerPath, ['--version'], { encoding: 'utf8' }).stdout.match(/v=(\S+)/)?.[1] ?? 'unknown',
    kill: () => end('SIGKILL'),
    restart: async () => {
      await end('SIGKILL');
      child = await launch();
    },
    stop: async () => {
      await end('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
    killNow: () => {
      child?.kill('SIGKILL');
      child = undefined;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A read-only replica of `master` (a second redis-server with `--replicaof`): it answers
 * reads and refuses every write with READONLY, as a primary demoted by a failover does.
 * Resolves once it has synced (master_link_status:up, 10 s at most).
 */
export async function startReplica(master) {
  const replica = await startRedis(['--replicaof', '127.0.0.1', String(master.port)]);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const info = await redisCli(['-h', '127.0.0.1', '-p', String(replica.port), 'INFO', 'replication']).catch(() => '');
    if (/^master_link_status:up\r?$/m.test(info)) return replica;
    if (Date.now() > deadline) {
      await replica.stop();
      throw new Error(`the replica on ${replica.port} did not sync with ${master.port} in 10 s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A Redis Cluster of three masters (no replicas) on free 127.0.0.1 ports, each with its bus
 * port given (--cluster-port), joined by `redis-cli --cluster create`, as
 * test/helpers/redis-cluster.ts starts one; resolves once every node says cluster_state:ok.
 * `nodes`: [{ host, port }]; `stop()`; `killNow()` for exit handlers.
 */
export async function startCluster() {
  if (!redisCliPath) throw new Error('redis-cli is not installed (it comes with redis-server: apt-get install redis-tools), or set REDIS_CLI');
  const dir = mkdtempSync(join(tmpdir(), 'ug-bench-cluster-'));
  const children = [];
  const nodes = [];
  const taken = new Set();
  const unused = async () => {
    for (;;) {
      const port = await freePort();
      if (!taken.has(port)) return taken.add(port), port;
    }
  };
  const killNow = () => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 3; i++) {
      for (let tries = 0; ; tries++) {
        const [port, bus] = [await unused(), await unused()];
        const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--loglevel', 'warning'];
        args.push('--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${port}.conf`), '--cluster-port', String(bus));
        const child = spawn(redisServerPath, args, { stdio: 'ignore' });
        const deadline = Date.now() + 5_000;
        let up = false;
        while (!up && Date.now() < deadline && child.exitCode === null) up = await pong(port, 500);
        if (up) {
          children.push(child);
          nodes.push({ host: '127.0.0.1', port });
          break;
        }
        child.kill('SIGKILL');
        if (tries === 2) throw new Error(`a cluster node did not answer PING on 127.0.0.1:${port}`);
      }
    }
    await redisCli(['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '0', '--cluster-yes'], 30_000);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const states = await Promise.all(nodes.map((n) => redisCli(['-h', '127.0.0.1', '-p', String(n.port), 'CLUSTER', 'INFO'], 2_000).then((t) => /^cluster_state:ok\r?$/m.test(t), () => false)));
      if (states.every(Boolean)) break;
      if (Date.now() > deadline) throw new Error(`the cluster did not reach cluster_state:ok in 20 s (nodes ${nodes.map((n) => n.port).join(', ')})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    killNow();
    throw error;
  }
  return {
    nodes,
    killNow,
    stop: async () => {
      for (const child of children) child.kill('SIGTERM');
      for (const child of children) if (!(await exited(child, 3_000))) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
