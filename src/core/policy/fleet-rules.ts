// What the state a fleet shares means for one call, decided by pure functions over plain
// data (test/core/fleet-rules.test.ts tests them as tables). core/fleet.ts reads the records
// from the store and writes them back; it decides nothing itself.

/** A base URL that failed: avoided by every instance until `until` (ms since the epoch); kept past it until a probe succeeds. */
export interface DownRecord {
  until: number;
}

/** A pause a 429 asked for, for one base URL and model: nobody sends there until `until`. */
export interface PauseRecord {
  until: number;
}

/** The account's quota ran out: calls are refused at once, until a probe at `recheckAt` succeeds. */
export interface QuotaRecord {
  at: number;
  recheckAt: number;
  /** The server's message, as the refusal quotes it. */
  message: string;
}

/** What the fleet knows that concerns one call (one model), as read from the store. */
export interface FleetView {
  /** By base URL; absent: healthy. */
  down: Readonly<Record<string, DownRecord | undefined>>;
  /** By base URL, for the call's model; absent: not paused. */
  pause: Readonly<Record<string, PauseRecord | undefined>>;
  quota: QuotaRecord | undefined;
}

/** Where a call's first attempt goes; `probe` when it is the one that tries a base back after its cooldown (it must hold the probe lock). */
export interface BaseChoice {
  base: string;
  probe: boolean;
  /** The base skipped because the fleet knows it is down. */
  skipped?: string | undefined;
}

/**
 * The main base unless the fleet knows it is down and there is a backup: then the backup,
 * except once the main's cooldown ran out, when the call may probe it (one instance at a
 * time: the caller takes the probe lock, and goes to the backup without it).
 */
export function chooseBase(view: FleetView, bases: { main: string; backup: string | undefined }, now: number): BaseChoice {
  const down = view.down[bases.main];
  if (!down || !bases.backup) return { base: bases.main, probe: false };
  if (down.until <= now) return { base: bases.main, probe: true };
  return { base: bases.backup, probe: false, skipped: bases.main };
}

/** Whether a base is outside its cooldown: no record, or a record whose time ran out (a probe may go there). */
export const isAvailable = (view: FleetView, base: string, now: number): boolean => (view.down[base]?.until ?? 0) <= now;

/**
 * What the quota record means for a call: `send` (no record), `refuse` (out of credit, the
 * recheck not due), or `probe` (the recheck is due: one instance at a time sends, holding
 * the quota probe lock; the others are refused).
 */
export function quotaDecision(view: FleetView, now: number): 'send' | 'refuse' | 'probe' {
  if (!view.quota) return 'send';
  return view.quota.recheckAt <= now ? 'probe' : 'refuse';
}

/** The ms a call to `base` for the view's model must wait out a pause a 429 asked for (0: none). */
export function pauseLeftMs(view: FleetView, base: string, now: number): number {
  const pause = view.pause[base];
  return pause ? Math.max(0, pause.until - now) : 0;
}

/**
 * The tokens a request will cost, estimated before sending (the reply's usage reconciles
 * it): about four characters a token for what the request carries, plus the most it may
 * generate (`max_tokens`, `max_completion_tokens`, `max_output_tokens`).
 */
export function estimateTokens(body: unknown): number {
  if (typeof body !== 'object' || body === null) return 0;
  const { max_tokens, max_completion_tokens, max_output_tokens, ...rest } = body as Record<string, unknown>;
  const output = [max_tokens, max_completion_tokens, max_output_tokens].find((n): n is number => typeof n === 'number' && n > 0) ?? 0;
  return Math.ceil((JSON.stringify(rest)?.length ?? 0) / 4) + output;
}

/** The tokens a reply says it used, from the usage shapes of chat, completions, embeddings and responses; undefined without usage. */
export function usedTokens(data: unknown): number | undefined {
  const usage = (data as { usage?: Record<string, unknown> } | null)?.usage;
  if (typeof usage !== 'object' || usage === null) return undefined;
  const total = usage.total_tokens;
  if (typeof total === 'number') return total;
  const parts = [usage.prompt_tokens, usage.completion_tokens, usage.input_tokens, usage.output_tokens].filter((n): n is number => typeof n === 'number');
  return parts.length ? parts.reduce((a, b) => a + b, 0) : undefined;
}
