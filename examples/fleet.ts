// Two instances that share what they learn through one store: a main base they found down is skipped by both, and a 429's pause holds for both. On a Redis started here when this machine has redis-server, else on one memoryStore().
// Always runs against two local mock gateways on 127.0.0.1 (faults cannot be scripted on the real service).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { createClient } from 'redis';
import { Gateway, memoryStore, RateLimitError, type Store } from 'unified-gateway';
import { redisStore } from 'unified-gateway/redis';
import { createMockGateway } from 'unified-gateway/testing';

const main = createMockGateway({ apiKey: 'demo-key' });
const backup = createMockGateway({ apiKey: 'demo-key' });
const [mainServer, backupServer] = await Promise.all([main.listen(), backup.listen()]);
const port = (url: string) => new URL(url).port;

/** A redis-server of this example on a free 127.0.0.1 port, saving nothing; undefined when the machine has none. */
async function startRedis(): Promise<{ url: string; child: ChildProcess } | undefined> {
  const binary = (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'redis-server'))
    .find((file) => existsSync(file));
  if (!binary) return undefined;
  const free = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = probe.address() as { port: number };
      probe.close(() => resolve(p));
    });
  });
  const child = spawn(binary, ['--port', String(free), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmpdir()], { stdio: ['ignore', 'pipe', 'ignore'] });
  process.once('exit', () => child.kill('SIGKILL'));
  // redis-server says so when it accepts connections; give it 5 s.
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 5_000);
    child.stdout?.on('data', (d: Buffer) => d.toString().includes('Ready to accept connections') && (clearTimeout(timer), resolve(true)));
    child.once('exit', () => (clearTimeout(timer), resolve(false)));
  });
  if (ready) return { url: `redis://127.0.0.1:${free}`, child };
  child.kill('SIGKILL');
  return undefined;
}

const server = await startRedis();
const redis = server ? await createClient({ url: server.url }).on('error', () => {}).connect() : undefined;
let store: Store;
if (redis && server) {
  console.log(`store: redisStore on a redis-server started for this example (${server.url}); instances in other processes and on other machines would share it too`);
  store = redisStore(redis, { prefix: `example-${process.pid}` });
} else {
  console.log('store: no redis-server on this machine (apt-get install redis-server), so one memoryStore() shared by both instances in this process.');
  console.log('  With redisStore(client) instead, instances in other processes and on other machines share the same state.');
  store = memoryStore();
}

// Two clients on one store, as two instances of an app would be (each in its own process).
const instance = (n: number) =>
  new Gateway({
    apiKey: 'demo-key',
    baseURL: mainServer.url,
    backupBaseURL: backupServer.url,
    store,
    hooks: {
      onFailover: (e) => console.log(`  instance ${n}: failover ${port(e.from)} -> ${port(e.to)} after ${e.status ?? e.error.name}`),
      onFleet: (e) =>
        console.log(`  instance ${n}: ${e.event === 'base-skipped' ? `skipped ${port(e.skipped ?? '')} (down for the fleet), sent to ${port(e.baseURL)}` : `${e.event} ${e.waitMs} ms on ${port(e.baseURL)}`}`),
    },
  });
const one = instance(1);
const two = instance(2);
const ask = (client: Gateway, content: string, maxRetries?: number) =>
  client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }, maxRetries === undefined ? {} : { maxRetries });

try {
  console.log(`1) the main (${port(mainServer.url)}) drops the connection for each instance once; the second failure with no answer between them marks it down for the fleet`);
  main.inject({ type: 'disconnect' });
  console.log(`  instance 1 -> ${(await ask(one, 'first')).choices[0]?.message.content}`);
  main.inject({ type: 'disconnect' });
  console.log(`  instance 2 -> ${(await ask(two, 'second')).choices[0]?.message.content}`);
  // An instance reads the store at most every 200 ms: instance 1 read it for its first call.
  await new Promise((resolve) => setTimeout(resolve, 250));
  console.log(`  instance 1 -> ${(await ask(one, 'third')).choices[0]?.message.content}`);
  console.log(`  the main saw ${main.requests.length} requests: after the second failure nobody sends it one until a probe after failoverCooldown`);

  console.log(`2) the backup (${port(backupServer.url)}) answers 429 Retry-After: 1 to instance 1 (no retries for that call)`);
  backup.inject({ type: 'rate_limit', retryAfter: 1 });
  const refused = await ask(one, 'fourth', 0).catch((e: unknown) => e);
  if (refused instanceof RateLimitError) console.log(`  instance 1 -> RateLimitError, the server asked for ${refused.retryAfterMs} ms`);
  await new Promise((resolve) => setTimeout(resolve, 250));
  const before = backup.requests.length;
  console.log(`  instance 2 -> ${(await ask(two, 'fifth')).choices[0]?.message.content}`);
  console.log(`  the backup saw ${backup.requests.length - before} request from instance 2, sent after the pause: none went into it`);
} finally {
  // The clients' last writes (a pause over, a base back) go out just after their calls return.
  await new Promise((resolve) => setTimeout(resolve, 100));
  await redis?.close();
  if (server) {
    server.child.kill('SIGTERM');
    console.log('stopped the redis-server');
  }
  await Promise.all([mainServer.close(), backupServer.close()]);
}
