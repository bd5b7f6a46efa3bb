// What `npm run bench:fleet` runs against: two small gateways (node:http on 127.0.0.1) whose
// behaviour the run switches while the fleet calls them, and one redis-server on a free
// loopback port. Both count everything they see; nothing here decides a result.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createConnection, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const json = (value) => JSON.stringify(value);

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
 * (time, model, the instance's `x-bench-instance` header, status). Its `mode`:
 * - `ok`: 200 with a completion;
 * - `blackhole`: accepts the request and never answers (until `release()`);
 * - `quota`: 429 `insufficient_quota`;
 * - `unavailable`: 503.
 * `pause({ model, armAt, ms })`: the first request for `model` at or after `armAt` opens a
 * window of `ms` in which every request for that model gets 429 with `Retry-After` (the
 * seconds left, rounded up), as a rate limiter does; other models are served.
 */
export async function startGateway(name) {
  const state = { mode: 'ok', pause: undefined, log: [], held: new Set() };
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
    const entry = { t: now, model, instance: Number(req.headers['x-bench-instance'] ?? -1), status: 0 };
    state.log.push(entry);
    const send = (status, body, headers = {}) => {
      entry.status = status;
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
    };
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(404, json({ error: { message: `Unknown request URL: ${req.method} ${req.url}.`, type: 'invalid_request_error', code: 'unknown_url' } }));
    if (state.mode === 'blackhole') {
      state.held.add(res);
      res.on('close', () => state.held.delete(res));
      return undefined;
    }
    if (state.mode === 'quota') return send(429, quotaBody);
    if (state.mode === 'unavailable') return send(503, unavailableBody);
    const pause = state.pause;
    if (pause && model === pause.model && now >= pause.armAt) {
      pause.from ??= now;
      const left = pause.from + pause.ms - now;
      if (left > 0) return send(429, rateBody(model), { 'retry-after': String(Math.ceil(left / 1000)) });
    }
    return send(200, completion(model));
  });
  server.keepAliveTimeout = 5_000;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    name,
    url: `http://127.0.0.1:${port}/v1`,
    state,
    get log() {
      return state.log;
    },
    set mode(mode) {
      state.mode = mode;
      if (mode !== 'blackhole') for (const res of state.held) res.destroy();
    },
    get mode() {
      return state.mode;
    },
    pause(pause) {
      state.pause = { ...pause, from: undefined };
    },
    /** Back to `ok`, its log and pause cleared, held requests dropped. */
    reset() {
      this.mode = 'ok';
      state.pause = undefined;
      state.log = [];
    },
    close() {
      for (const res of state.held) res.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
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
 * Starts redis-server on a free 127.0.0.1 port, saving nothing (`--save '' --appendonly no`).
 * `kill()` is a crash (SIGKILL); `restart()` brings it back, empty, on the same port;
 * `stop()` ends it and removes its directory; `killNow()` is for exit handlers (synchronous).
 */
export async function startRedis() {
  const dir = mkdtempSync(join(tmpdir(), 'ug-bench-redis-'));
  let child;
  let port = 0;
  const launch = async () => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--loglevel', 'warning'];
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
