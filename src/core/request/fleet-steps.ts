import type { CallState } from './call-state.js';
import { parseErrorBody } from '../error-factory.js';
import { APIError, InternalServerError, RateLimitError } from '../errors.js';
import { failureKind } from '../policy/decide.js';
import { chooseBase, lessonOf, MODEL_5XX_MS } from '../policy/fleet-rules.js';

// What the fleet (fleet/fleet.ts) does to one call, at each step of sending it: before
// anything is sent (the quota, the share of `limits`), where its first attempt goes (a base
// down for the fleet), before each attempt (a pause a 429 asked for), and what its answer or
// failure teaches the fleet. sendRequest (call.ts) skips them all when the fleet knows nothing
// that concerns the call (`Fleet.clear`). Base health is this process's memory; what only a
// `store` or `limits` add is fleet/shared-fleet.ts's, loaded with them.

/**
 * Before anything is sent: with a store, a quota the fleet knows is exhausted refuses the call
 * at once; with `limits`, the call waits for its share of the rate budget, or is refused at
 * once when that wait does not fit (fleet/shared-fleet.ts `admit`).
 */
export async function admit(call: CallState, model: string | undefined): Promise<void> {
  const { fleet } = call.config;
  if (fleet.shared || fleet.settings.limits) await (await fleet.sharedFleet()).admit(call, model);
}

/**
 * The base a model's first attempt goes to: the main one, unless the fleet knows it is down;
 * once its cooldown ran out, the one call that takes the probe lock tries it back.
 */
export async function firstBase(call: CallState, model: string | undefined): Promise<string> {
  const { fleet, pool } = call.config;
  const choice = chooseBase(await fleet.view(model), pool);
  if (choice.probe && (await fleet.lock(['probe', pool.main], Math.max(1, fleet.settings.cooldownMs)))) {
    call.probing = pool.main;
    return pool.main;
  }
  const base = choice.probe ? (pool.backup as string) : choice.base;
  if (base !== pool.main) {
    const info = { event: 'base-skipped', baseURL: base, skipped: pool.main, model, waitMs: 0 } as const;
    fleet.tell(info);
    call.observer?.fleet?.(info);
  }
  return base;
}

/** Before an attempt: with a store, a pause a 429 asked for on this base and model (fleet/shared-fleet.ts `beforeAttempt`). Returns the base to use. */
export async function beforeAttempt(call: CallState, base: string, model: string | undefined, pinned: boolean): Promise<string> {
  const { fleet } = call.config;
  return fleet.shared ? (await fleet.sharedFleet()).beforeAttempt(call, { base, model, pinned }) : base;
}

/** An answer from `base`: what the fleet held against it is over (a pause there, the quota too), and the token estimate is reconciled. */
export async function afterAnswer(call: CallState, at: { base: string; model: string | undefined; data: unknown }): Promise<void> {
  const { fleet } = call.config;
  // Awaited: an app that closes its Redis client right after a call finds nothing still writing.
  await fleet.answered(at.base, at.model, fleet.lastView(at.model), true);
  if (call.tokens > 0) await (await fleet.sharedFleet()).reconcile(call, at.data);
}

/**
 * A failed attempt: what it teaches (policy/fleet-rules.ts `lessonOf`): evidence that the base
 * is down (a redirect to the other base marks it down at once: the gateway says so), and
 * with a store, that model's pause on that base or the exhausted quota. An HTTP answer below
 * 500 says the base itself is up.
 */
export async function afterFailure(call: CallState, at: { base: string; model: string | undefined; error: unknown; redirected: boolean }): Promise<void> {
  const { fleet } = call.config;
  const { error, base, model } = at;
  const probing = call.probing === base;
  // The gateway itself sent the call to the other base: it says this one is not serving.
  if (at.redirected) return fleet.evidence(base, true);
  const api = error instanceof APIError ? error : undefined;
  const lesson = lessonOf({ kind: failureKind(error), status: api ? statusOf(api) : null, retryAfterMs: api?.retryAfterMs ?? null, quotaMessage: api ? (parseErrorBody(api.error).message ?? api.code ?? undefined) : undefined });
  // A quota probe that failed for another reason learnt nothing: the next call may probe.
  if (call.quotaProbe && lesson?.kind !== 'quota') await (await fleet.sharedFleet()).drop([['quota-probe']]);
  // The first call after a pause was answered with anything but a 429: the pause is over, and the calls waiting for it go at once.
  if (call.pauseProbe === base && lesson?.kind !== 'pause') await (await fleet.sharedFleet()).drop([['was-paused', base, model ?? ''], ['pause-probe', base, model ?? '']]);
  // The base itself answered (a 4xx, or an error object inside a 200): it is up.
  if (api && api.status < 500) await fleet.answered(base, model, fleet.lastView(model), false);
  if (!lesson) return;
  if (lesson.kind === 'evidence' || (lesson.kind === 'model-5xx' && probing)) return fleet.evidence(base, probing);
  // One model's 5xx counts against its base once a minute: one model's failures are that model's.
  if (lesson.kind === 'model-5xx') return (await fleet.lock(['model-5xx', base, model ?? ''], MODEL_5XX_MS)) ? fleet.evidence(base, false) : undefined;
  // Pauses and an exhausted quota are kept only through a store the user gave (Fleet.shared).
  if (fleet.shared) await (await fleet.sharedFleet()).learn(call, { base, model, lesson });
}

/** An error's status as the fleet reads it: an error object inside a 200 counts by its class. */
const statusOf = (error: APIError): number => (error.status !== 200 ? error.status : error instanceof RateLimitError ? 429 : error instanceof InternalServerError ? 500 : 200);
