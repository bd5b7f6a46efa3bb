import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Gateway, InsufficientQuotaError, memoryStore, RateLimitError, type FleetInfo, type GatewayOptions, type Store } from '../../src/index.js';
import { redisStore } from '../../src/redis/index.js';
import { createClient } from 'redis';
import { afterAll, beforeAll } from 'vitest';
import { redisClusterLibraries, redisLibraries, useRedisClients, type Connected } from '../helpers/redis-clients.js';
import { describeWithRedisCluster, startRedisCluster, type RedisCluster } from '../helpers/redis-cluster.js';
import { describeWithRedis } from '../helpers/redis-server.js';

// Clients on one store behave as one fleet (docs/fleet.md): what one learns about a base, a
// pause or the quota, the others act on without paying for it again. Each client stands for
// one instance (a process, a serverless function); they share nothing but the store. No test
// sleeps or reads a clock: time passes by moving the fake clock (memory) or by polling until
// the store's own clock expired a record (Redis); waits inside the SDK are watched by events.

const KEY = 'sk-fleet-test-key-0123456789';
const MAIN = 'http://main.fleet.test/v1';
const BACKUP = 'http://backup.fleet.test/v1';

type Answer = (req: { model: string | undefined; signal: AbortSignal | null | undefined }) => Response | Promise<Response>;

/** Two gateways, main and backup, whose answers the test sets; every request counted by base and model. */
function gateways() {
  const hits = { main: 0, backup: 0 };
  const models: string[] = [];
  const ok = () => Response.json({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } });
  const answers: { main: Answer; backup: Answer } = { main: ok, backup: ok };
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    const base = url.startsWith(MAIN) ? 'main' : 'backup';
    hits[base]++;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { model?: string }) : {};
    models.push(`${base}:${body.model}`);
    return answers[base]({ model: body.model, signal: init?.signal });
  };
  return { hits, models, answers, fetch, ok };
}

/** No answer at all: the connection is refused. */
const refused: Answer = () => Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }));
const status = (code: number, body: unknown = { error: { message: `status ${code}`, code: code === 503 ? 'server_error' : null } }, headers: Record<string, string> = {}) => () =>
  Response.json(body, { status: code, headers });
/** An answer that waits for the test to release it; `arrived` resolves when the request is in. */
function held(answer: () => Response) {
  let release = () => {};
  let arrived = () => {};
  const inside = new Promise<void>((resolve) => (arrived = resolve));
  const respond: Answer = () => {
    arrived();
    return new Promise((resolve) => (release = () => resolve(answer())));
  };
  return { respond, inside, release: () => release() };
}

function instance(store: Store, fetch: GatewayOptions['fetch'], more: GatewayOptions = {}) {
  const events: FleetInfo[] = [];
  const client = new Gateway({ apiKey: KEY, baseURL: MAIN, backupBaseURL: BACKUP, fetch, store, maxRetries: 2, retry: { baseDelayMs: 0 }, hooks: { onFleet: (e) => events.push(e) }, ...more });
  return { client, events };
}

const chat = (client: Gateway, model = 'm') => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });

/** Resolves once `check` holds, looking at most `tries` times, a macrotask apart (state, not time). */
async function until(check: () => boolean, tries = 2_000): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('the condition never held');
}

/** A store the scenarios share, and how time passes for it. */
interface World {
  store(): Store;
  /** Lets the store's records of `kind` expire (the cooldown, a pause, the quota's recheck). */
  expire(kind: 'down' | 'pause' | 'quota', ms: number): Promise<void>;
}

/** The scenarios, over any store that several clients share. */
function fleetScenarios(world: () => World) {
  it('marks a base down only on evidence: the second failure with no answer between them, then every instance skips it', async () => {
    const { store } = world();
    const s = store();
    const gw = gateways();
    gw.answers.main = refused;
    await chat(instance(s, gw.fetch).client);
    // One refused connection says little: the next instance still tries the main.
    await chat(instance(s, gw.fetch).client);
    expect(gw.hits).toEqual({ main: 2, backup: 2 });
    const other = instance(s, gw.fetch);
    await chat(other.client);
    expect(gw.hits).toEqual({ main: 2, backup: 3 });
    expect(other.events).toEqual([expect.objectContaining({ event: 'base-skipped', baseURL: BACKUP, skipped: MAIN })]);
  });

  it('forgets the evidence when the base answers in between', async () => {
    const s = world().store();
    const gw = gateways();
    gw.answers.main = refused;
    await chat(instance(s, gw.fetch).client);
    gw.answers.main = gw.ok;
    await chat(instance(s, gw.fetch).client);
    gw.answers.main = refused;
    await chat(instance(s, gw.fetch).client);
    await chat(instance(s, gw.fetch).client);
    // Failures 1 and 3 had an answer between them: only failures 3 and 4 count together.
    expect(gw.hits.main).toBe(4);
    const after = instance(s, gw.fetch);
    await chat(after.client);
    expect(gw.hits.main).toBe(4);
  });

  it("keeps one model's 5xx that model's: the base stays up for every model", async () => {
    const s = world().store();
    const gw = gateways();
    gw.answers.main = ({ model }) => (model === 'broken' ? status(500)() : gw.ok());
    for (let i = 0; i < 4; i++) await chat(instance(s, gw.fetch).client, 'broken');
    const other = instance(s, gw.fetch);
    await chat(other.client, 'fine');
    expect(gw.models.at(-1)).toBe('main:fine');
    expect(other.events).toEqual([]);
  });

  it('takes 5xx from two models as evidence against the base', async () => {
    const s = world().store();
    const gw = gateways();
    gw.answers.main = status(502);
    await chat(instance(s, gw.fetch).client, 'a');
    await chat(instance(s, gw.fetch).client, 'b');
    const other = instance(s, gw.fetch);
    await chat(other.client, 'c');
    expect(other.events).toEqual([expect.objectContaining({ event: 'base-skipped' })]);
  });

  it("never cuts a call in flight because of another instance's evidence: it only keeps new attempts away", async () => {
    const s = world().store();
    const gw = gateways();
    const slow = held(gw.ok);
    gw.answers.main = slow.respond;
    const inFlight = chat(instance(s, gw.fetch, { timeout: 60_000 }).client);
    await slow.inside;
    gw.answers.main = refused;
    await chat(instance(s, gw.fetch).client);
    await chat(instance(s, gw.fetch).client);
    const skipping = instance(s, gw.fetch);
    await chat(skipping.client);
    expect(skipping.events).toEqual([expect.objectContaining({ event: 'base-skipped' })]);
    // The main is down for the fleet, and the healthy call in flight there still gets its answer.
    slow.release();
    await expect(inFlight).resolves.toMatchObject({ id: 'chatcmpl-1' });
    expect(gw.models.filter((m) => m.startsWith('backup')).length).toBe(3);
  });

  it('lets exactly one instance probe the base back per cooldown, and the fleet returns when it answers', async () => {
    const { store, expire } = world();
    const s = store();
    const gw = gateways();
    const make = () => instance(s, gw.fetch, { failoverCooldown: 60 });
    gw.answers.main = refused;
    await chat(make().client);
    await chat(make().client);
    await expire('down', 60);
    // The probe is slow to answer: every other instance calling meanwhile goes to the backup.
    const probe = held(gw.ok);
    gw.answers.main = probe.respond;
    const before = { ...gw.hits };
    const calls = Array.from({ length: 6 }, () => chat(make().client));
    await probe.inside;
    await until(() => gw.hits.backup - before.backup === 5);
    expect(gw.hits.main - before.main).toBe(1);
    probe.release();
    await Promise.all(calls);
    gw.answers.main = gw.ok;
    const back = make();
    await chat(back.client);
    expect(gw.hits.main - before.main).toBe(2);
    expect(back.events).toEqual([]);
  });

  it('probes at most once per cooldown while the base stays dead', async () => {
    const { store, expire } = world();
    const s = store();
    const gw = gateways();
    gw.answers.main = refused;
    const make = () => instance(s, gw.fetch, { failoverCooldown: 60 });
    await chat(make().client);
    await chat(make().client);
    for (let round = 0; round < 3; round++) {
      await expire('down', 60);
      const before = gw.hits.main;
      await Promise.all(Array.from({ length: 4 }, () => chat(make().client)));
      // Four instances call after the cooldown: one probe of the main, the rest to the backup.
      expect(gw.hits.main - before).toBe(1);
    }
  });

  it("keeps a 429 to one model from taking the base away from the others", async () => {
    const s = world().store();
    const gw = gateways();
    gw.answers.main = ({ model }) => (model === 'busy' ? status(429, { error: { message: 'slow down', code: 'rate_limit_exceeded' } }, { 'retry-after-ms': '5000' })() : gw.ok());
    await chat(instance(s, gw.fetch).client, 'busy');
    const other = instance(s, gw.fetch);
    await chat(other.client, 'other');
    expect(gw.models.at(-1)).toBe('main:other');
    expect(other.events).toEqual([]);
  });

  it('waits out the pause a 429 asked for, fleet-wide, sending nothing into it', async () => {
    const s = world().store();
    const gw = gateways();
    gw.answers.main = status(429, { error: { message: 'slow down', code: 'rate_limit_exceeded' } }, { 'retry-after-ms': '300' });
    // No backup: the pause is on the only base.
    const solo = (more: GatewayOptions = {}) => instance(s, gw.fetch, { backupBaseURL: undefined, maxRetries: 0, ...more });
    await expect(chat(solo().client, 'paced')).rejects.toBeInstanceOf(RateLimitError);
    gw.answers.main = gw.ok;
    const other = solo();
    const hitsBefore = gw.hits.main;
    const waiting = chat(other.client, 'paced');
    await until(() => other.events.length > 0);
    expect(other.events).toEqual([expect.objectContaining({ event: 'paused', baseURL: MAIN, model: 'paced' })]);
    expect(gw.hits.main).toBe(hitsBefore);
    await waiting;
    expect(gw.hits.main).toBe(hitsBefore + 1);
    // Another model was never paused.
    const unpaused = solo();
    await chat(unpaused.client, 'other-model');
    expect(unpaused.events).toEqual([]);
  });

  it('lets the others go at once when the first call after a pause is answered with something other than a 429', async () => {
    const { store, expire } = world();
    const inner = store();
    let reads = 0;
    const s: Store = { get: (keys) => (reads++, inner.get(keys)), set: (...a) => inner.set(...a), delete: (k) => inner.delete(k), take: (...a) => inner.take(...a) };
    const gw = gateways();
    gw.answers.main = status(429, { error: { message: 'slow down', code: 'rate_limit_exceeded' } }, { 'retry-after-ms': '100' });
    const solo = () => instance(s, gw.fetch, { backupBaseURL: undefined, maxRetries: 0 });
    await expect(chat(solo().client)).rejects.toBeInstanceOf(RateLimitError);
    await expire('pause', 100);
    // The first call after the pause meets a 503, slowly: the others wait for its answer.
    const probe = held(status(503));
    gw.answers.main = probe.respond;
    const first = chat(solo().client).catch((e: unknown) => e);
    await probe.inside;
    gw.answers.main = gw.ok;
    const waiting = solo();
    const second = chat(waiting.client);
    await until(() => reads > 0);
    const before = reads;
    probe.release();
    expect(await first).toMatchObject({ status: 503 });
    // Answered: the 503 ended the pause for everyone, so the waiting call went at its next look
    // (every 250 ms) instead of looking twenty times over PAUSE_PROBE_WAIT_MS (5 s).
    await expect(second).resolves.toMatchObject({ id: 'chatcmpl-1' });
    expect(reads - before).toBeLessThanOrEqual(4);
    expect(gw.hits.main).toBe(3);
  });

  it('sends the others to the other base, not into a wait, while the first call after a pause has not been answered', async () => {
    const { store, expire } = world();
    const s = store();
    const gw = gateways();
    gw.answers.main = status(429, { error: { message: 'slow down', code: 'rate_limit_exceeded' } }, { 'retry-after-ms': '100' });
    await expect(chat(instance(s, gw.fetch, { maxRetries: 0 }).client)).rejects.toBeInstanceOf(RateLimitError);
    await expire('pause', 100);
    const probe = held(gw.ok);
    gw.answers.main = probe.respond;
    const first = chat(instance(s, gw.fetch).client);
    await probe.inside;
    const other = instance(s, gw.fetch);
    await expect(chat(other.client)).resolves.toMatchObject({ id: 'chatcmpl-1' });
    // Answered by the backup while the first call after the pause was still out on the main.
    expect(gw.models.at(-1)).toBe('backup:m');
    probe.release();
    await first;
  });

  it("trusts the store over its own memory: a pause another instance's answer ended is over for the instance that met the 429 too", async () => {
    const { store, expire } = world();
    const s = store();
    const gw = gateways();
    gw.answers.main = status(429, { error: { message: 'slow down', code: 'rate_limit_exceeded' } }, { 'retry-after-ms': '100' });
    const met = instance(s, gw.fetch, { backupBaseURL: undefined, maxRetries: 0 });
    await expect(chat(met.client)).rejects.toBeInstanceOf(RateLimitError);
    await expire('pause', 100);
    gw.answers.main = gw.ok;
    await chat(instance(s, gw.fetch, { backupBaseURL: undefined }).client);
    // Past the 200 ms its last read stands, the instance that met the 429 reads the store again.
    await expire('pause', 250);
    met.events.length = 0;
    await expect(chat(met.client)).resolves.toMatchObject({ id: 'chatcmpl-1' });
    expect(met.events).toEqual([]);
  });

  it('remembers a 429 without Retry-After as a short pause for that model, growing while the 429s go on', async () => {
    const inner = world().store();
    // The pauses as written: a pause record's ttl is its length.
    const pauses: number[] = [];
    const s: Store = { get: (k) => inner.get(k), set: (key, value, o) => (key.includes(':pause:') && pauses.push(o.ttlMs), inner.set(key, value, o)), delete: (k) => inner.delete(k), take: (...a) => inner.take(...a) };
    const gw = gateways();
    gw.answers.main = status(429, { error: { message: 'rate limited', code: 'rate_limit_exceeded' } });
    const solo = () => instance(s, gw.fetch, { backupBaseURL: undefined, maxRetries: 0, retry: { baseDelayMs: 100, maxDelayMs: 400, jitter: 0 } });
    await expect(chat(solo().client)).rejects.toBeInstanceOf(RateLimitError);
    for (let i = 0; i < 3; i++) await expect(chat(solo().client)).rejects.toBeInstanceOf(RateLimitError);
    // The pause doubled with each 429 in a row, up to maxDelayMs.
    expect(pauses).toEqual([100, 200, 400, 400]);
    expect(gw.hits.main).toBe(4);
  });

  it('bounds a Retry-After from the network: a year is read as an hour, and the call is refused at once with it', async () => {
    const s = world().store();
    const gw = gateways();
    gw.answers.main = status(429, { error: { message: 'come back next year', code: 'rate_limit_exceeded' } }, { 'retry-after': '31536000' });
    const solo = () => instance(s, gw.fetch, { backupBaseURL: undefined, maxRetries: 0 });
    await expect(chat(solo().client)).rejects.toBeInstanceOf(RateLimitError);
    const err = await chat(solo().client).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBeLessThanOrEqual(3_600_000);
    expect((err as RateLimitError).retryAfterMs).toBeGreaterThan(3_500_000);
    expect(String(err)).toContain('nothing was sent');
    expect(gw.hits.main).toBe(1);
  });

  it('refuses at once, nothing sent, once the quota is known to be exhausted; one instance probes it back after the recheck time', async () => {
    const { store, expire } = world();
    const s = store();
    const gw = gateways();
    gw.answers.main = status(429, { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } });
    const make = () => instance(s, gw.fetch, { backupBaseURL: undefined, failoverCooldown: 100 });
    await expect(chat(make().client)).rejects.toBeInstanceOf(InsufficientQuotaError);
    expect(gw.hits.main).toBe(1);
    const refusedOne = make();
    const err = await chat(refusedOne.client).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientQuotaError);
    expect(String(err)).toContain('nothing was sent');
    expect(String(err)).toContain('You exceeded your current quota');
    expect(gw.hits.main).toBe(1);
    expect(refusedOne.events).toEqual([expect.objectContaining({ event: 'quota-exhausted' })]);
    gw.answers.main = gw.ok;
    await expire('quota', 100);
    // The recheck is due: one call probes, and its answer opens the quota for everyone.
    await chat(make().client);
    await chat(make().client);
    expect(gw.hits.main).toBe(3);
  });

  it('lets the next call probe the quota when a probe failed for another reason (it learnt nothing)', async () => {
    const { store, expire } = world();
    const s = store();
    const gw = gateways();
    gw.answers.main = status(429, { error: { message: 'quota', type: 'insufficient_quota', code: 'insufficient_quota' } });
    const make = () => instance(s, gw.fetch, { backupBaseURL: undefined, failoverCooldown: 100, maxRetries: 0 });
    await chat(make().client).catch(() => undefined);
    await expire('quota', 100);
    gw.answers.main = status(503);
    await expect(chat(make().client)).rejects.toMatchObject({ status: 503 });
    gw.answers.main = gw.ok;
    await expect(chat(make().client)).resolves.toMatchObject({ id: 'chatcmpl-1' });
    expect(gw.hits.main).toBe(3);
  });

  it('holds the fleet under requestsPerMinute, and refuses unsent when the wait would pass maxRetryAfterMs', async () => {
    const s = world().store();
    const gw = gateways();
    // 600 a minute: ten at once, then one every 100 ms; a call may wait 250 ms for its turn.
    const limited = () => instance(s, gw.fetch, { limits: { requestsPerMinute: 600 }, retry: { baseDelayMs: 0, maxRetryAfterMs: 250 } });
    const a = limited();
    const b = limited();
    await Promise.all(Array.from({ length: 10 }, (_, i) => chat((i % 2 ? a : b).client)));
    // Five more at once: two get the next turns (about 100 and 200 ms away), the other three
    // would wait 300 ms or more: refused, unsent.
    const settled = await Promise.all(Array.from({ length: 5 }, (_, i) => chat((i % 2 ? a : b).client).catch((e: unknown) => e)));
    const refusedCalls = settled.filter((r) => r instanceof Error);
    expect(settled.filter((r) => !(r instanceof Error))).toHaveLength(2);
    expect(refusedCalls).toHaveLength(3);
    for (const error of refusedCalls) expect(error).toBeInstanceOf(RateLimitError);
    expect(refusedCalls.every((e) => (e as RateLimitError).retryAfterMs! > 250)).toBe(true);
    expect(gw.hits.main + gw.hits.backup).toBe(12);
    expect([...a.events, ...b.events].filter((e) => e.event === 'held' && e.waitMs > 0)).toHaveLength(2);
  });

  it('smooths tokens like requests: about a second of tokensPerMinute at once, the rest waits its turn', async () => {
    const s = world().store();
    const gw = gateways();
    // 60,000 a minute: 1,000 a second. Each call is estimated at its max_tokens (400) and its
    // body (a few tokens): the first two fit the first second, the third waits about 200 ms
    // for its turn, the fourth would wait about 650 ms, past maxRetryAfterMs: refused, unsent.
    // Each answer says it used what was reserved, so nothing is given back between the calls.
    gw.answers.main = async () => {
      const answer = (await gw.ok().json()) as Record<string, unknown>;
      return Response.json({ ...answer, usage: { prompt_tokens: 15, completion_tokens: 400, total_tokens: 415 } });
    };
    const { client, events } = instance(s, gw.fetch, { limits: { tokensPerMinute: 60_000 }, retry: { baseDelayMs: 0, maxRetryAfterMs: 300 } });
    const ask = () => client.chat.completions.create({ model: 'm', max_tokens: 400, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    const settled = await Promise.all([ask(), ask(), ask(), ask()]);
    expect(settled.filter((r) => r instanceof RateLimitError).length).toBeGreaterThanOrEqual(1);
    expect(events.filter((e) => e.event === 'held' && e.waitMs > 0).length).toBeGreaterThanOrEqual(1);
    // Never a minute's worth in one burst: at most the second's worth and what waited its turn.
    expect(gw.hits.main).toBeLessThanOrEqual(3);
  });

  it('keeps no secret in the store: the API key and the base URLs are hashed; the fleet keys carry a format and one hash tag', async () => {
    const seen: string[] = [];
    const keys: string[] = [];
    const inner = world().store();
    const recording: Store = {
      get: (names) => (keys.push(...names), inner.get(names)),
      set: (key, value, options) => (keys.push(key), seen.push(value), inner.set(key, value, options)),
      delete: (names) => (keys.push(...names), inner.delete(names)),
      take: (key, take) => (keys.push(key), inner.take(key, take)),
    };
    const gw = gateways();
    gw.answers.main = status(429, { error: { message: `quota of ${KEY}`, code: 'insufficient_quota' } });
    await chat(instance(recording, gw.fetch, { limits: { requestsPerMinute: 1000 } }).client).catch(() => undefined);
    await chat(instance(recording, gw.fetch).client).catch(() => undefined);
    expect(keys.length).toBeGreaterThan(3);
    const all = [...keys, ...seen].join('\n');
    expect(all).not.toContain(KEY);
    expect(all).not.toContain('fleet.test');
    expect(new Set(keys.map((k) => k.slice(0, k.indexOf('}') + 1))).size).toBe(1);
    expect(keys.every((k) => /^\{[0-9a-f]{24}\}:f2:/.test(k))).toBe(true);
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
  afterEach(() => void vi.useRealTimers());
  fleetScenarios(() => {
    // The memory store and the fleet read Date: the fake clock moves records past their ttl.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    return { store: () => memoryStore(), expire: async (_kind, ms) => void vi.setSystemTime(Date.now() + ms + 250) };
  });

  it('goes on with its own memory when the store fails, and says so once', async () => {
    const { broken, warnings, logger } = unreachable();
    const gw = gateways();
    const { client } = instance(broken, gw.fetch, { logger, logLevel: 'warn', limits: { requestsPerMinute: 100 } });
    for (let i = 0; i < 5; i++) await expect(chat(client)).resolves.toMatchObject({ id: 'chatcmpl-1' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/unreachable|memory/i);
  });

  it('never knows less than it would alone: what it learnt while the store was away is still its own', async () => {
    const { broken, logger } = unreachable();
    const gw = gateways();
    gw.answers.main = refused;
    const { client, events } = instance(broken, gw.fetch, { logger });
    await chat(client);
    await chat(client);
    await chat(client);
    expect(gw.hits.main).toBe(2);
    expect(events.at(-1)).toMatchObject({ event: 'base-skipped' });
  });

  it("warns once for a store that is both the fleet's and the cache's", async () => {
    const { broken, warnings, logger } = unreachable();
    const gw = gateways();
    const { client } = instance(broken, gw.fetch, { logger, logLevel: 'warn', cache: { store: broken } });
    for (let i = 0; i < 3; i++) await expect(chat(client)).resolves.toMatchObject({ id: 'chatcmpl-1' });
    expect(warnings).toHaveLength(1);
  });

  it("never refuses another key for this key's exhausted quota: withOptions({ apiKey }) is another account", async () => {
    const gw = gateways();
    gw.answers.main = status(429, { error: { message: 'quota', code: 'insufficient_quota' } });
    const first = instance(memoryStore(), gw.fetch, { backupBaseURL: undefined, maxRetries: 0 }).client;
    await expect(chat(first)).rejects.toBeInstanceOf(InsufficientQuotaError);
    await expect(chat(first)).rejects.toThrow(/nothing was sent/);
    gw.answers.main = gw.ok;
    await expect(chat(first.withOptions({ apiKey: 'sk-another-key-0000000000' }))).resolves.toMatchObject({ id: 'chatcmpl-1' });
    expect(gw.hits.main).toBe(2);
  });

  /** A store that reads back `value` at every key of `kind`, whatever was written there (a key that lost its ttl, another host, a hand edit). */
  const planted = (kind: string, value: () => string): Store => {
    const inner = memoryStore();
    return {
      get: async (keys) => (await inner.get(keys)).map((found, i) => (keys[i]?.includes(`:f2:${kind}:`) || keys[i]?.endsWith(`:f2:${kind}`) ? value() : found)),
      set: (...a) => inner.set(...a),
      delete: (k) => inner.delete(k),
      take: (...a) => inner.take(...a),
    };
  };
  const record = (fields: Record<string, unknown>, at: number, ttl: number) => JSON.stringify({ ...fields, at, ttl });

  it('never waits forever for a pause record that outstayed its length (a key that lost its ttl)', async () => {
    const gw = gateways();
    const store = planted('pause', () => record({}, Date.now() - 5_000, 1_000));
    await expect(chat(instance(store, gw.fetch, { backupBaseURL: undefined }).client)).resolves.toMatchObject({ id: 'chatcmpl-1' });
    // 0.4's first cut kept a pause as { until }: one whose end had passed, never expired, held every call forever.
    const older = planted('pause', () => JSON.stringify({ until: Date.now() - 5_000 }));
    await expect(chat(instance(older, gw.fetch, { backupBaseURL: undefined }).client)).resolves.toMatchObject({ id: 'chatcmpl-1' });
  });

  it('waits a pause written by a host whose clock runs two minutes ahead no longer than the pause itself', async () => {
    const gw = gateways();
    const written = Date.now() + 120_000;
    const store = planted('pause', () => record({}, written, 300));
    const { client, events } = instance(store, gw.fetch, { backupBaseURL: undefined });
    await expect(chat(client)).resolves.toMatchObject({ id: 'chatcmpl-1' });
    expect(events[0]).toMatchObject({ event: 'paused' });
    expect(events[0]?.waitMs).toBeLessThanOrEqual(300);
  });

  it('ignores a quota record 200 days old that never expired', async () => {
    const gw = gateways();
    const store = planted('quota', () => record({ message: 'out of credit' }, Date.now() - 200 * 86_400_000, 30_000));
    await expect(chat(instance(store, gw.fetch, { backupBaseURL: undefined }).client)).resolves.toMatchObject({ id: 'chatcmpl-1' });
  });

  it('lets the next pause have its first call: a new 429 gives back the lock of the call that sent first after the last pause', async () => {
    const gw = gateways();
    gw.answers.main = status(429, { error: { message: 'slow down', code: 'rate_limit_exceeded' } }, { 'retry-after-ms': '100' });
    const inner = memoryStore();
    const deleted: string[] = [];
    const store: Store = { get: (k) => inner.get(k), set: (...a) => inner.set(...a), delete: (k) => (deleted.push(...k), inner.delete(k)), take: (...a) => inner.take(...a) };
    const solo = () => instance(store, gw.fetch, { backupBaseURL: undefined, maxRetries: 0 });
    await expect(chat(solo().client)).rejects.toBeInstanceOf(RateLimitError);
    // The next call waits the pause out, sends first after it (taking the lock), and meets a 429 again.
    await expect(chat(solo().client)).rejects.toBeInstanceOf(RateLimitError);
    expect(deleted.some((key) => key.includes(':pause-probe:'))).toBe(true);
  });

  it('without a store, keeps base health in its own memory as before (no pause or quota: each call meets them)', async () => {
    const gw = gateways();
    gw.answers.main = status(429, { error: { message: 'quota', code: 'insufficient_quota' } });
    const own = new Gateway({ apiKey: KEY, baseURL: MAIN, fetch: gw.fetch, maxRetries: 0 });
    await expect(chat(own)).rejects.toBeInstanceOf(InsufficientQuotaError);
    await expect(chat(own)).rejects.toBeInstanceOf(InsufficientQuotaError);
    expect(gw.hits.main).toBe(2);
  });

  it('reads every record back as untrusted input: garbage at any key is ignored, never an answer or an error (1,000 runs)', async () => {
    const gw = gateways();
    const garbage = fc.oneof(fc.constant('null'), fc.constant('{}'), fc.constant('"a string"'), fc.constant('{"until":1e400}'), fc.constant('{"at":0,"message":"x"}'), fc.constant('{"until":253402300799000}'), fc.constant('{"strikes":-3}'), fc.string(), fc.json());
    await fc.assert(
      fc.asyncProperty(fc.array(garbage, { minLength: 12, maxLength: 12 }), async (values) => {
        const inner = memoryStore();
        // Every read answers garbage, whatever was written.
        const hostile: Store = { get: async (keys) => keys.map((_, i) => values[i % values.length] ?? null), set: (...a) => inner.set(...a), delete: (k) => inner.delete(k), take: (...a) => inner.take(...a) };
        const { client } = instance(hostile, gw.fetch, { backupBaseURL: undefined });
        await expect(chat(client)).resolves.toMatchObject({ id: 'chatcmpl-1' });
      }),
      { numRuns: 1_000 },
    );
    // 1,000 clients and calls: about 3 s alone, three or four times that on a loaded 2-core machine.
  }, 60_000);
});

describeWithRedis('a fleet on Redis (instances anywhere)', () => {
  const connected = useRedisClients();

  describe.each(redisLibraries.map(([name], i) => [name, i] as const))('over %s', (_, i) => {
    let n = 0;
    fleetScenarios(() => {
      // A prefix per test: each starts with an empty fleet.
      const prefix = `fleet-${i}-${n++}`;
      const raw = (connected[i] as (typeof connected)[number]).client;
      const keys = async (kind: string) => {
        const pattern = `${prefix}:*:f2:${kind}*`;
        const c = raw as { call?: (...args: string[]) => Promise<unknown>; sendCommand?: (args: string[]) => Promise<unknown> };
        return (await (c.call ? c.call('KEYS', pattern) : (c.sendCommand as (args: string[]) => Promise<unknown>)(['KEYS', pattern]))) as string[];
      };
      return {
        store: () => redisStore(raw, { prefix }),
        // Polled on Redis's own clock: the record is gone once Redis expired it, and `ms` of its time passed.
        expire: async (kind, ms) => {
          const c = raw as { call?: (...args: string[]) => Promise<unknown>; sendCommand?: (args: string[]) => Promise<unknown> };
          const time = async () => {
            const [seconds, micros] = (await (c.call ? c.call('TIME') : (c.sendCommand as (args: string[]) => Promise<unknown>)(['TIME']))) as [string, string];
            return Number(seconds) * 1000 + Number(micros) / 1000;
          };
          const from = await time();
          let found = await keys(kind);
          for (let tries = 0; (found.length > 0 || (await time()) < from + ms) && tries < 400; tries++) {
            await new Promise((resolve) => setTimeout(resolve, 10));
            found = await keys(kind);
          }
          expect(found).toEqual([]);
        },
      };
    });
  });
});

describeWithRedisCluster('a fleet on a Redis Cluster (instances anywhere, one account in one slot)', () => {
  let cluster: RedisCluster;
  const clients: Connected[] = [];
  /** A plain client of each node: a node lists only its own keys. */
  let nodes: Array<ReturnType<typeof createClient>> = [];

  beforeAll(async () => {
    cluster = await startRedisCluster();
    for (const [, connect] of redisClusterLibraries) clients.push(await connect(cluster.nodes));
    nodes = await Promise.all(cluster.nodes.map((n) => createClient({ url: `redis://${n.host}:${n.port}` }).on('error', () => {}).connect()));
  }, 60_000);

  afterAll(async () => {
    for (const { close } of clients) close();
    for (const node of nodes) node.destroy();
    await cluster?.stop();
  }, 20_000);

  describe.each(redisClusterLibraries.map(([name], i) => [name, i] as const))('over %s', (_, i) => {
    let n = 0;
    fleetScenarios(() => {
      const prefix = `cluster-${i}-${n++}`;
      const keys = async (kind: string) => (await Promise.all(nodes.map((node) => node.keys(`${prefix}:*:f2:${kind}*`)))).flat();
      return {
        store: () => redisStore((clients[i] as Connected).client, { prefix }),
        expire: async (kind, ms) => {
          const time = async () => {
            const [seconds, micros] = (await (nodes[0] as ReturnType<typeof createClient>).sendCommand(['TIME'])) as [string, string];
            return Number(seconds) * 1000 + Number(micros) / 1000;
          };
          const from = await time();
          let found = await keys(kind);
          for (let tries = 0; (found.length > 0 || (await time()) < from + ms) && tries < 400; tries++) {
            await new Promise((resolve) => setTimeout(resolve, 10));
            found = await keys(kind);
          }
          expect(found).toEqual([]);
        },
      };
    });
  });

  it("keeps one account's records on one node (the hash tag), and reads several in one command", async () => {
    const store = redisStore((clients[0] as Connected).client, { prefix: 'one-slot' });
    const gw = gateways();
    gw.answers.main = refused;
    await chat(instance(store, gw.fetch).client);
    await chat(instance(store, gw.fetch).client);
    const held = await Promise.all(nodes.map((node) => node.keys('one-slot:*')));
    expect(held.filter((keys) => keys.length > 0)).toHaveLength(1);
    expect(held.flat().length).toBeGreaterThanOrEqual(3);
  });
});
