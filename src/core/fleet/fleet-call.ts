import { sleep } from '../../internal/sleep.js';
import { joinURL } from '../request/attempt.js';
import type { CallState } from '../request/call-state.js';
import { createAPIError, parseErrorBody } from '../error-factory.js';
import { APIError, GatewayError, isQuotaError, RateLimitError } from '../errors.js';
import type { FleetInfo } from '../hooks.js';
import { chooseBase, estimateTokens, isAvailable, pauseLeftMs, quotaDecision, usedTokens } from '../policy/fleet-rules.js';

// What the fleet's shared state (core/fleet.ts) does to one call, at each of its steps:
// before it is sent (quota, rate budget), where its first attempt goes (a base down for the
// fleet), before each attempt (a pause a 429 asked for), and what its answer or failure
// teaches the fleet. The decisions are fleet-rules.ts's; these steps read, wait and write.

/**
 * Before anything is sent: a quota the fleet knows is exhausted refuses the call at once
 * (one instance at a time probes it back), and with `limits` the call reserves its share of
 * the rate budget, waiting for it, or refusing at once past `retry.maxRetryAfterMs`.
 * Resolves with the tokens reserved (0 without a token budget), for `afterAnswer`.
 */
export async function admitCall(call: CallState, model: string | undefined): Promise<number> {
  const { fleet, pool, retry } = call.config;
  const view = await fleet.view(model);
  const quota = quotaDecision(view, Date.now());
  if (quota !== 'send' && !(quota === 'probe' && (await fleet.lock('quota-probe')))) {
    tell(call, { event: 'quota-exhausted', baseURL: pool.main, model, waitMs: 0 });
    throw refusal(call, 'insufficient_quota', `The quota is exhausted, as the gateway said at ${new Date(view.quota?.at ?? 0).toISOString()} ("${view.quota?.message ?? 'insufficient_quota'}"); nothing was sent. One call retries it after failoverCooldown`, null);
  }
  if (!fleet.settings.limits) return 0;
  const tokens = estimateTokens(call.request.body);
  const budget = call.budgetMs();
  const { taken, waitMs } = await fleet.reserve(tokens, Math.min(retry.maxRetryAfterMs, budget ?? Number.POSITIVE_INFINITY));
  if (!taken) throw refusal(call, 'rate_limit_exceeded', `The fleet's rate budget (limits) would take ${waitMs} ms to allow this call, beyond retry.maxRetryAfterMs; nothing was sent`, waitMs);
  if (waitMs > 0) {
    tell(call, { event: 'held', baseURL: pool.main, model, waitMs });
    await sleep(waitMs, call.signal).catch(() => {
      throw call.stopped(`${call.request.method} ${call.path}`);
    });
  }
  return tokens;
}

/** The base a model's first attempt goes to: the main one, unless the fleet knows it is down (one instance probes it back once its cooldown ran out). */
export async function firstBase(call: CallState, model: string | undefined): Promise<string> {
  const { fleet, pool } = call.config;
  const choice = chooseBase(await fleet.view(model), pool, Date.now());
  const probing = choice.probe && (await fleet.lock('probe', choice.base));
  const base = choice.probe && !probing && pool.backup ? pool.backup : choice.base;
  if (base !== pool.main) tell(call, { event: 'base-skipped', baseURL: base, skipped: pool.main, model, waitMs: 0 });
  return base;
}

/**
 * Before an attempt: a pause a 429 asked for on this base and model is waited out (the
 * other base is taken instead when it is available and not paused), or, when longer than
 * `retry.maxRetryAfterMs`, the call fails at once with the server's wait. Returns the base to use.
 */
export async function beforeAttempt(call: CallState, base: string, model: string | undefined, pinned: boolean): Promise<string> {
  const { fleet, pool, retry } = call.config;
  const view = await fleet.view(model);
  const now = Date.now();
  const left = pauseLeftMs(view, base, now);
  // A pause that ran out and no answer since: one instance probes, the others wait for it.
  if (left === 0) return view.pause[base] ? afterPause(call, base, model) : base;
  const other = pool.next(base);
  if (!pinned && other !== base && isAvailable(view, other, now) && pauseLeftMs(view, other, now) === 0) return other;
  const budget = call.budgetMs();
  if (left > retry.maxRetryAfterMs || (budget !== undefined && left >= budget)) {
    throw refusal(call, 'rate_limit_exceeded', `A 429 paused ${model ?? 'calls'} on ${base} for the fleet for ${left} ms more, beyond what this call may wait; nothing was sent`, left);
  }
  tell(call, { event: 'paused', baseURL: base, model, waitMs: left });
  await sleep(left, call.signal).catch(() => {
    throw call.stopped(`${call.request.method} ${call.path}`);
  });
  return base;
}

/** How long the instances that did not win a pause's probe wait for its answer, at most. */
const PROBE_WAIT_MS = 5_000;

/**
 * After a pause ran out: the instance that takes the probe lock sends; the others wait until
 * its answer ends the pause (or it is paused again, then they wait that out), checking every
 * few hundred ms, and go after PROBE_WAIT_MS whatever happened.
 */
async function afterPause(call: CallState, base: string, model: string | undefined): Promise<string> {
  const { fleet } = call.config;
  if (await fleet.lock('pause-probe', base, model)) return base;
  for (let waited = 0; waited < PROBE_WAIT_MS; waited += 250) {
    await sleep(250, call.signal).catch(() => {
      throw call.stopped(`${call.request.method} ${call.path}`);
    });
    const pause = (await fleet.view(model)).pause[base];
    if (!pause) return base;
    if (pause.until > Date.now()) return beforeAttempt(call, base, model, true);
  }
  return base;
}

/** An answer: the fleet returns to its base, a pause there is over, the quota is back; the token estimate is reconciled. */
export async function afterAnswer(call: CallState, at: { base: string; model: string | undefined; tokens: number; data: unknown }): Promise<void> {
  const { fleet } = call.config;
  const view = fleet.lastView(at.model);
  // Awaited (they happen after a failure, or with a token budget): an app that closes its
  // Redis client right after a call finds nothing still writing.
  if (view.down[at.base]) await fleet.markUp(at.base);
  if (view.pause[at.base]) await fleet.endPause(at.base, at.model);
  if (view.quota) await fleet.quotaBack();
  if (at.tokens > 0) await fleet.reconcile(at.tokens, usedTokens(at.data));
}

/** A failed attempt: every instance learns of the base (down, when worth a retry), the pause a 429 asked for, or the exhausted quota. */
export async function afterFailure(call: CallState, at: { base: string; model: string | undefined; error: unknown; retryable: boolean }): Promise<void> {
  const { fleet } = call.config;
  const { error } = at;
  // Pauses and quota are shared through a store the user gave; a client on its own memory keeps base health only.
  const shared = !fleet.settings.local;
  // The server's words only: the request line would name the base URL in the store.
  if (shared && error instanceof APIError && isQuotaError(error)) return fleet.quotaOut(parseErrorBody(error.error).message ?? error.code ?? 'insufficient_quota', fleet.settings.cooldownMs || 30_000);
  // Through a store, a 429 is one model's pause, not the base's health: the other models stay on it.
  if (shared && error instanceof RateLimitError) {
    if (error.retryAfterMs) await fleet.pause(at.base, at.model, error.retryAfterMs);
    return;
  }
  if (at.retryable && fleet.settings.cooldownMs > 0) await fleet.markDown(at.base);
}

/** The base an attempt in flight is watched on: its signal aborts when the fleet marks the base down. */
export function watchBase(call: CallState, base: string): { signal: AbortSignal; done: () => void } | undefined {
  return call.url === undefined && call.config.pool.backup ? call.config.fleet.watch(base) : undefined;
}

/** Tells the hooks and the logger (through the fleet) and telemetry what the fleet's state did to the call. */
function tell(call: CallState, info: FleetInfo): void {
  call.config.fleet.tell(info);
  call.observer?.fleet?.(info);
}

/** An error the fleet's state gives before anything is sent: quota, or a wait beyond what the call allows. */
function refusal(call: CallState, code: 'insufficient_quota' | 'rate_limit_exceeded', message: string, retryAfterMs: number | null): GatewayError {
  const { config, request } = call;
  return createAPIError({
    status: 429,
    body: { error: { message, type: code, code } },
    headers: new Headers(),
    method: request.method,
    url: joinURL(config.pool.main, call.path),
    retryAfterMs,
    redactor: config.redactor,
  });
}
