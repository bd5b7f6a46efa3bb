import { describe, expect, it } from 'vitest';
import { Gateway, InsufficientQuotaError, memoryStore, RateLimitError, type FleetInfo, type GatewayOptions, type Store } from '../../src/index.js';
import { redisStore } from '../../src/redis/index.js';
import { redisLibraries, useRedisClients } from '../helpers/redis-clients.js';
import { describeWithRedis } from '../helpers/redis-server.js';

// Clients on one store behave as one fleet (docs/fleet.md): what one learns about a base, a
// pause or the quota, the others act on without paying for it again. Each client stands for
// one instance (a process, a serverless function); they share nothing but the store.

const KEY = 'sk-fleet-test-key-0123456789';
const MAIN = 'http://main.fleet.test/v1';
const BACKUP = 'http://backup.fleet.test/v1';

type Answer = (req: { model: string | undefined; signal: AbortSignal | null | undefined }) => Response | Promise<Response>;

/** Two gateways, main and backup, whose answers the test sets; every request counted by base. */
function gateways() {
  const hits = { main: 0, backup: 0 };
  const ok = () => Response.json({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } });
  const answers: { main: Answer; backup: Answer } = { main: ok, backup: ok };
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    const base = url.startsWith(MAIN) ? 'main' : 'backup';
    hits[base]++;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { model?: string }) : {};
    return answers[base]({ model: body.model, signal: init?.signal });
  };
  return { hits, answers, fetch, ok };
}

/** An answer that never comes, until the attempt is aborted (a blackholed base). */
const hang: Answer = ({ signal }) => new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
const status = (code: number, body: unknown = { error: { message: `status ${code}`, code: code === 503 ? 'server_error' : null } }, headers: Record<string, string> = {}) => () =>
  Response.json(body, { status: code, headers });

function instance(store: Store, fetch: GatewayOptions['fetch'], more: GatewayOptions = {}) {
  const events: FleetInfo[] = [];
  const client = new Gateway({ apiKey: KEY, baseURL: MAIN, backupBaseURL: BACKUP, fetch, store, maxRetries: 2, retry: { baseDelayMs: 0 }, hooks: { onFleet: (e) => events.push(e) }, ...more });
  return { client, events };
}

const chat = (client: Gateway, model = 'm') => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });

/** The scenarios, over any store that several clients share. */
function fleetScenarios(makeStore: () => Store) {
  it('skips a base another instance found down, without sending to it', async () => {
    const store = makeStore();
    const gw = gateways();
    gw.answers.main = status(503);
    await chat(instance(store, gw.fetch).client);
    expect(gw.hits).toEqual({ main: 1, backup: 1 });
    const other = instance(store, gw.fetch);
    await chat(other.client);
    expect(gw.hits).toEqual({ main: 1, backup: 2 });
    expect(other.events).toEqual([expect.objectContaining({ event: 'base-skipped', baseURL: BACKUP, skipped: MAIN })]);
  });

  it('lets exactly one instance probe the base back when its cooldown ran out, and returns to it when the probe succeeds', async () => {
    const store = makeStore();
    const gw = gateways();
    gw.answers.main = status(503);
    await chat(instance(store, gw.fetch, { failoverCooldown: 50 }).client);
    await new Promise((resolve) => setTimeout(resolve, 80));
    // The probe is slow to answer: every other instance calling meanwhile goes to the backup.
    let release = () => {};
    gw.answers.main = () => new Promise((resolve) => (release = () => resolve(gw.ok())));
    const before = { ...gw.hits };
    const calls = Array.from({ length: 6 }, () => chat(instance(store, gw.fetch, { failoverCooldown: 50 }).client));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(gw.hits.main - before.main).toBe(1);
    expect(gw.hits.backup - before.backup).toBe(5);
    release();
    gw.answers.main = gw.ok;
    await Promise.all(calls);
    await new Promise((resolve) => setTimeout(resolve, 250));
    await chat(instance(store, gw.fetch, { failoverCooldown: 50 }).client);
    expect(gw.hits.main - before.main).toBe(2);
  });

  it('probes again after each cooldown when a probe fails (a failed probe gives its lock back)', async () => {
    const store = makeStore();
    const gw = gateways();
    gw.answers.main = status(503);
    const make = () => instance(store, gw.fetch, { failoverCooldown: 60 });
    for (let round = 0; round < 3; round++) {
      await chat(make().client);
      await new Promise((resolve) => setTimeout(resolve, 90));
    }
    // One failed attempt on the main per round: the first, then a probe after each cooldown.
    expect(gw.hits.main).toBe(3);
    expect(gw.hits.backup).toBe(3);
  });

  it("keeps a 429 to one model from taking the base away from the others", async () => {
    const store = makeStore();
    const gw = gateways();
    gw.answers.main = ({ model }) => (model === 'busy' ? status(429, { error: { message: 'slow down', code: 'rate_limit_exceeded' } }, { 'retry-after-ms': '5000' })() : gw.ok());
    await chat(instance(store, gw.fetch).client, 'busy');
    const before = gw.hits.main;
    await chat(instance(store, gw.fetch).client, 'other');
    expect(gw.hits.main).toBe(before + 1);
  });

  it('moves attempts in flight off a base that fails for another instance, instead of waiting out their timeout', async () => {
    const store = makeStore();
    const gw = gateways();
    gw.answers.main = hang;
    const waiting = [instance(store, gw.fetch, { timeout: 20_000 }), instance(store, gw.fetch, { timeout: 20_000 })].map(({ client }) => chat(client));
    await new Promise((resolve) => setTimeout(resolve, 50));
    gw.answers.main = status(503);
    await chat(instance(store, gw.fetch).client);
    // The two hanging attempts learn within a poll (200 ms) and are retried on the backup.
    const started = Date.now();
    await expect(Promise.all(waiting)).resolves.toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(gw.hits.backup).toBe(3);
  });

  it("waits out the pause a 429 asked for, fleet-wide, before sending to that base and model", async () => {
    const store = makeStore();
    const gw = gateways();
    gw.answers.main = status(429, { error: { message: 'slow down', code: 'rate_limit_exceeded' } }, { 'retry-after-ms': '300' });
    // No backup: the pause is on the only base.
    const solo = (more: GatewayOptions = {}) => instance(store, gw.fetch, { backupBaseURL: undefined, maxRetries: 0, ...more });
    await expect(chat(solo().client, 'paced')).rejects.toBeInstanceOf(RateLimitError);
    gw.answers.main = gw.ok;
    const other = solo();
    const started = Date.now();
    const hitsBefore = gw.hits.main;
    const waiting = chat(other.client, 'paced');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(gw.hits.main).toBe(hitsBefore);
    await waiting;
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(other.events).toEqual([expect.objectContaining({ event: 'paused', baseURL: MAIN, model: 'paced' })]);
    // Another model was never paused.
    const unpaused = solo();
    await chat(unpaused.client, 'other-model');
    expect(unpaused.events).toEqual([]);
  });

  it('refuses at once, nothing sent, once the quota is known to be exhausted; one instance probes it back after the recheck time', async () => {
    const store = makeStore();
    const gw = gateways();
    gw.answers.main = status(429, { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } });
    const make = () => instance(store, gw.fetch, { backupBaseURL: undefined, failoverCooldown: 100 });
    await expect(chat(make().client)).rejects.toBeInstanceOf(InsufficientQuotaError);
    expect(gw.hits.main).toBe(1);
    const refused = make();
    const err = await chat(refused.client).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientQuotaError);
    expect(String(err)).toContain('nothing was sent');
    expect(gw.hits.main).toBe(1);
    expect(refused.events).toEqual([expect.objectContaining({ event: 'quota-exhausted' })]);
    gw.answers.main = gw.ok;
    await new Promise((resolve) => setTimeout(resolve, 150));
    await chat(make().client);
    await new Promise((resolve) => setTimeout(resolve, 250));
    await chat(make().client);
    expect(gw.hits.main).toBe(3);
  });

  it('holds the fleet under requestsPerMinute, and refuses unsent when the wait would pass maxRetryAfterMs', async () => {
    const store = makeStore();
    const gw = gateways();
    // 600 a minute: ten at once, then one every 100 ms; a call may wait 250 ms for its turn.
    const limited = () => instance(store, gw.fetch, { limits: { requestsPerMinute: 600 }, retry: { baseDelayMs: 0, maxRetryAfterMs: 250 } });
    const a = limited();
    const b = limited();
    await Promise.all(Array.from({ length: 10 }, (_, i) => chat((i % 2 ? a : b).client)));
    // Five more at once: two get the next turns (about 100 and 200 ms away), the other three
    // would wait 300 ms or more: refused, unsent.
    const settled = await Promise.all(Array.from({ length: 5 }, (_, i) => chat((i % 2 ? a : b).client).catch((e: unknown) => e)));
    const refused = settled.filter((r) => r instanceof Error);
    expect(settled.filter((r) => !(r instanceof Error))).toHaveLength(2);
    expect(refused).toHaveLength(3);
    for (const error of refused) expect(error).toBeInstanceOf(RateLimitError);
    expect(refused.every((e) => (e as RateLimitError).retryAfterMs! > 250)).toBe(true);
    expect(gw.hits.main + gw.hits.backup).toBe(12);
    expect([...a.events, ...b.events].filter((e) => e.event === 'held' && e.waitMs > 0)).toHaveLength(2);
  });

  it('keeps no secret in the store: the API key and the base URLs are hashed', async () => {
    const seen: string[] = [];
    const inner = makeStore();
    const recording: Store = {
      get: (keys) => (seen.push(...keys), inner.get(keys)),
      set: (key, value, options) => (seen.push(key, value), inner.set(key, value, options)),
      delete: (keys) => (seen.push(...keys), inner.delete(keys)),
      take: (key, take) => (seen.push(key), inner.take(key, take)),
    };
    const gw = gateways();
    gw.answers.main = status(429, { error: { message: `quota of ${KEY}`, code: 'insufficient_quota' } });
    await chat(instance(recording, gw.fetch, { limits: { requestsPerMinute: 1000 } }).client).catch(() => undefined);
    await chat(instance(recording, gw.fetch).client).catch(() => undefined);
    expect(seen.length).toBeGreaterThan(3);
    const all = seen.join('\n');
    expect(all).not.toContain(KEY);
    expect(all).not.toContain('fleet.test');
  });
}

/** A store whose every operation fails, and a logger that keeps the warnings. */
function unreachable() {
  const refuse = async () => Promise.reject(new Error('ECONNREFUSED'));
  const broken: Store = { get: refuse, set: refuse, delete: refuse, take: refuse };
  const warnings: string[] = [];
  const logger = { error: () => {}, warn: (line: string) => warnings.push(line), info: () => {}, debug: () => {} };
  return { broken, warnings, logger };
}

describe('a fleet on one memoryStore (instances in one process)', () => {
  fleetScenarios(() => memoryStore());

  it('goes on with its own memory when the store fails, and says so once', async () => {
    const { broken, warnings, logger } = unreachable();
    const gw = gateways();
    const { client } = instance(broken, gw.fetch, { logger, logLevel: 'warn', limits: { requestsPerMinute: 100 } });
    for (let i = 0; i < 5; i++) await expect(chat(client)).resolves.toMatchObject({ id: 'chatcmpl-1' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/unreachable|memory/i);
  });

  it("warns once for a store that is both the fleet's and the cache's", async () => {
    const { broken, warnings, logger } = unreachable();
    const gw = gateways();
    const { client } = instance(broken, gw.fetch, { logger, logLevel: 'warn', cache: { store: broken } });
    for (let i = 0; i < 3; i++) await expect(chat(client)).resolves.toMatchObject({ id: 'chatcmpl-1' });
    expect(warnings).toHaveLength(1);
  });

  it('without a store, keeps base health in its own memory as before (no pause or quota shared)', async () => {
    const gw = gateways();
    gw.answers.main = status(429, { error: { message: 'quota', code: 'insufficient_quota' } });
    const own = new Gateway({ apiKey: KEY, baseURL: MAIN, fetch: gw.fetch, maxRetries: 0 });
    await expect(chat(own)).rejects.toBeInstanceOf(InsufficientQuotaError);
    await expect(chat(own)).rejects.toBeInstanceOf(InsufficientQuotaError);
    expect(gw.hits.main).toBe(2);
  });
});

describeWithRedis('a fleet on Redis (instances anywhere)', () => {
  const connected = useRedisClients();

  describe.each(redisLibraries.map(([name], i) => [name, i] as const))('over %s', (_, i) => {
    let n = 0;
    // A prefix per test: each starts with an empty fleet.
    fleetScenarios(() => redisStore((connected[i] as (typeof connected)[number]).client, { prefix: `fleet-${i}-${n++}` }));
  });
});
