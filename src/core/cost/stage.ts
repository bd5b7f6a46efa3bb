import { readGatewayInfo, type GatewayPricing, type GetText } from '../gateway-info/gateway-info.js';
import { maxOutputTokensOf } from '../adapt/model-rules.js';
import { BudgetExceededError, ValidationError } from '../errors.js';
import type { CoreConfig } from '../types.js';
import { isRecord } from '../../internal/is-record.js';
import { hasCredential } from '../../internal/credential-headers.js';
import { unref } from '../../internal/unref.js';
import type { Budget, Cost, CostState, CostTags } from './cost.js';
import { chargeBudgets, ledgerOf, recordSpend, type Charge } from './ledger.js';
import { costIn, costOf, tell } from './events.js';
import { billableUsage, priceQuota, type Billable, type PriceRequest } from './price.js';
import { reconcileLater } from './reconcile.js';

// The cost stage of a call (docs/cost.md), loaded with the first call of a client that has
// `cost` or `budgets` (request/call.ts): before a model's request is sent, its worst case is
// reserved in every budget that holds the call (`reserve`); once answered, the call is priced
// with the gateway's own table (`settle`, or at a stream's end `meter`), the reservations are
// settled to that price, the spend recorded per tag, `onCost` told, and the price queued to be
// reconciled with what the gateway billed (reconcile.ts).

/** What a call holds of the cost stage while it runs (CallState.costing). */
export interface CallCost {
  readonly tags: CostTags;
  /** What the model's request reserved in its budgets, settled once answered (or released). */
  charge: Charge | undefined;
  /** The model the reservation is for. */
  model?: string | undefined;
  /** An attempt of the current model's request was sent and never answered (the gateway may have billed it). */
  unanswered?: boolean | undefined;
  /** The call's cost once known: for a stream, at its end. */
  result: Promise<Cost | null> | undefined;
}

/** The part of a call this stage reads (request/call-state.ts's CallState is one). */
export interface CostCall {
  readonly config: CoreConfig;
  readonly options: { readonly idleTimeout?: number | undefined; readonly headers?: Readonly<Record<string, string>> | undefined };
  readonly path: string;
  readonly request: { readonly method: string; readonly model?: string | undefined };
  readonly costing: CallCost;
  readonly signal: AbortSignal | undefined;
  /** The error for a call stopped by its signal (the caller's abort, its totalTimeout). */
  stopped(what: string): Error;
}

/** A model's request as sent: its model and JSON body. */
export interface SentRequest {
  model: string | undefined;
  json: unknown;
}

/** The tokens a prompt may take, from its JSON text: a token is at least a byte of text, so its length bounds it (an image part counts as IMAGE_TOKENS). */
const IMAGE_TOKENS = 1_500;

/** The budgets that hold a call with `tags`: every `where` value matches. */
export const budgetsFor = (budgets: readonly Budget[], tags: CostTags): Budget[] => budgets.filter((b) => !b.where || Object.entries(b.where).every(([k, v]) => tags[k] === v));

/**
 * Before a model's request is sent: its worst case reserved in each budget that holds the
 * call, atomically in the store; a budget it could break refuses it with
 * `BudgetExceededError` (nothing sent, and nothing left reserved). A call no budget holds,
 * or whose model the gateway's table lacks, reserves nothing.
 */
export async function reserve(call: CostCall, request: SentRequest): Promise<void> {
  const state = costOf(call.config);
  // The previous model's reservation (a fallback): given back, or kept where an attempt of it went unanswered.
  await failed(call);
  const budgets = budgetsFor(state.settings.budgets, call.costing.tags);
  if (budgets.length === 0 || request.model === undefined) return;
  const info = await pricing(call);
  const priced = info && priceRequest(call, info, request.model, request.json, worstUsage(call, request));
  if (!info || !priced) return;
  const refusal = await chargeBudgets(ledgerOf(call.config), budgets, priced.quota, info.quotaPerUnit, call);
  // Stopped while it waited for room in a budget: the call's own stop, not the budget's refusal.
  if ('refused' in refusal && call.signal?.aborted) throw call.stopped(`waiting for room in budget '${refusal.refused.budget.name}'`);
  if ('refused' in refusal) {
    const { budget, spent, resetsAt } = refusal.refused;
    throw new BudgetExceededError({ budget: budget.name, spentUsd: spent / info.quotaPerUnit, limitUsd: budget.usd, resetsAt, wouldAddUsd: priced.quota / info.quotaPerUnit });
  }
  call.costing.charge = refusal.charge;
  call.costing.model = request.model;
  call.costing.unanswered = false;
}

/** A model's request that the gateway refused (it answered with an error, which new-api does not bill): what it reserved is given back. */
export async function release(call: CostCall): Promise<void> {
  const { charge } = call.costing;
  call.costing.charge = undefined;
  if (charge) await charge.settle(0);
}

/**
 * A call that failed for good. Where an attempt was sent and never answered (a timeout, a
 * connection cut, an abort in flight), the gateway may have served and billed it: its
 * reservation is kept as spent, estimated, and onCost told; otherwise it is given back.
 */
export async function failed(call: CostCall): Promise<void> {
  const { charge } = call.costing;
  if (!charge || !call.costing.unanswered) return release(call);
  call.costing.charge = undefined;
  await charge.settle(charge.quota);
  const info = await pricing(call).catch(() => null);
  if (!info) return;
  const cost = costIn(info, charge.quota, 'estimated');
  await recordSpend(ledgerOf(call.config), call.costing.tags, charge.quota);
  tell(call.config, { model: call.costing.model ?? '', cost, delta: { quota: cost.quota, usd: cost.usd }, requestID: null, tags: call.costing.tags });
}

/**
 * An answered call, priced from its body: reservations settled to the price, spend recorded,
 * `onCost` told, the price queued for reconciling. Null when it cannot be priced (no table,
 * a model the table lacks): then reservations stand as they were, the worst case.
 */
async function settle(call: CostCall, answer: { model: string | undefined; response: Response; json: unknown; usage: Billable | undefined; complete: boolean }): Promise<Cost | null> {
  const { model } = answer;
  const info = model === undefined ? null : await pricing(call).catch(() => null);
  const priced = info && model !== undefined ? priceRequest(call, info, model, answer.json, answer.usage) : undefined;
  const charge = call.costing.charge;
  call.costing.charge = undefined;
  if (!info || !priced || model === undefined) return null;
  // A token-priced answer whose usage was never read (a raw body, a stream cut before its usage) is estimated at its reservation, or not at all.
  if (answer.usage === undefined && info.models.get(model)?.quotaType === 0 && !charge) {
    // Nothing to estimate from: the call is unpriced until its bill is read, which onCost then tells whole.
    const billedID = answer.response.headers.get('x-oneapi-request-id');
    if (billedID && !carriesCredential(call)) reconcileLater(call.config, { id: billedID, model, priced: costIn(info, 0, 'estimated'), tags: call.costing.tags, charge: undefined });
    return null;
  }
  const estimated = priced.estimated || !answer.complete;
  // A stream cut before its usage, or a body never read: the worst case it reserved stands as the estimate.
  const quota = !answer.complete && charge ? Math.max(charge.quota, priced.quota) : priced.quota;
  if (charge) await charge.settle(quota);
  const cost = costIn(info, quota, estimated ? 'estimated' : 'priced');
  await recordSpend(ledgerOf(call.config), call.costing.tags, quota);
  tell(call.config, { model, cost, delta: { quota: cost.quota, usd: cost.usd }, requestID: requestIDOf(answer.response), tags: call.costing.tags });
  // The log read is the client's key's: a call sent with another credential (a per-call key) is billed to that key's log, and keeps its price.
  const billedID = answer.response.headers.get('x-oneapi-request-id');
  if (billedID && !carriesCredential(call)) reconcileLater(call.config, { id: billedID, model, priced: cost, tags: call.costing.tags, charge });
  return cost;
}

/**
 * After an answer: the call priced from its body; a raw response (`asResponse()`, body
 * unread) at its reservation, as an estimate; a stream at its end, from the usage frames
 * its reader hands out (the reader calls `frame` for each and `end` once).
 */
export function answered(call: CostCall, answer: { model: string | undefined; response: Response; data: unknown; json: unknown }, kind: 'body' | 'raw' | 'stream'): void {
  const { model, response, json } = answer;
  if (kind !== 'stream') {
    const usage = kind === 'body' ? billableUsage(answer.data) : undefined;
    // Never the call's failure: a store or a table that fails leaves the call unpriced.
    call.costing.result = settle(call, { model, response, json, usage, complete: usage !== undefined && !usage.incomplete }).catch(() => null);
    return;
  }
  let usage: Billable | undefined;
  let ended: ((cost: Promise<Cost | null>) => void) | undefined;
  call.costing.result = new Promise((resolve) => (ended = resolve));
  const { costing } = call;
  // Priced once: at the end, or when the stream has been left unread for its idle timeout (then
  // at its reservation, an estimate the bill corrects): cost() never waits on a caller that stopped reading.
  const price = (complete: boolean) => {
    clearTimeout(stale);
    ended?.(settle(call, { model, response, json, usage, complete: complete && usage !== undefined && !usage.incomplete }).catch(() => null));
    ended = undefined;
    return costing.result as Promise<Cost | null>;
  };
  const idleMs = call.options.idleTimeout ?? call.config.idleTimeout;
  let last = Date.now();
  const check = (): void => {
    const left = idleMs - (Date.now() - last);
    if (left > 0) stale = unref(setTimeout(check, left));
    else void price(false);
  };
  let stale = unref(setTimeout(check, idleMs));
  (answer.data as Metered).meterWith({
    frame(frame) {
      last = Date.now();
      // A chat chunk's usage, or a responses stream's final event, which carries the response.
      const source = isRecord(frame) && isRecord(frame.response) && isRecord(frame.response.usage) ? frame.response : frame;
      if (isRecord(source) && isRecord(source.usage)) usage = billableUsage(source) ?? usage;
    },
    end: (normally) => price(normally),
  });
}

/** Whether the call carries a credential of its own (a per-call key), not the client's. */
const carriesCredential = (call: CostCall): boolean => hasCredential(call.options.headers);

/** A stream's reader, which tells a meter of each frame it hands out and of its end (streams/sse-reader.ts). */
export interface Metered {
  meterWith(meter: StreamMeter): void;
}

/** Reads a stream's usage as its frames are handed out; prices the call at the end. */
export interface StreamMeter {
  frame(frame: unknown): void;
  end(normally: boolean): Promise<Cost | null>;
}

/** The request id a cost event names: the gateway's own first (the one its log keeps). */
const requestIDOf = (response: Response): string | null => response.headers.get('x-oneapi-request-id') ?? response.headers.get('x-request-id');

/**
 * The gateway's price table, read through the client's path; null when the gateway has none
 * (warned once by the reader) or its read failed (a timeout, a 5xx: this call goes unpriced
 * and unbudgeted, and the next call reads again). The call's own stop is its own.
 */
async function pricing(call: CostCall): Promise<GatewayPricing | null> {
  try {
    return await readGatewayInfo(call.config, costOf(call.config).get, { signal: call.signal });
  } catch (error) {
    if (call.signal?.aborted) throw error;
    call.config.fleet.settings.log('warn', `[unified-gateway] the gateway's price table could not be read (${error instanceof Error ? error.message : String(error)}): this call goes unpriced`);
    return null;
  }
}

/**
 * The price of one request of `model` with `usage`, as the gateway's table says: per request
 * (images by `n`, videos by `duration`) or by tokens. Undefined for a model the table lacks
 * (warned once).
 */
function priceRequest(call: CostCall, info: GatewayPricing, model: string, json: unknown, usage: Billable | undefined): { quota: number; estimated: boolean } | undefined {
  const state = costOf(call.config);
  const entry = info.models.get(model);
  if (!entry) {
    if (!state.unknown.has(model)) {
      state.unknown.add(model);
      call.config.fleet.settings.log('warn', `[unified-gateway] ${model} is not in the gateway's price table (/api/pricing): its calls are not priced, and no budget is charged for them`);
    }
    return undefined;
  }
  const body = isRecord(json) ? json : {};
  const request: PriceRequest = { entry, groupRatio: groupRatio(info, state.settings.group), quotaPerUnit: info.quotaPerUnit, usage };
  if (call.path.startsWith('images/')) request.requests = typeof body.n === 'number' && Number.isInteger(body.n) && body.n > 0 ? body.n : 1;
  if (call.path === 'videos/generations') request.videoSeconds = typeof body.duration === 'number' ? body.duration : 5;
  return priceQuota(request);
}

/** The key's group ratio: the group named in `cost`, else the one group it may use, else `default`; 1 when the table does not say. */
function groupRatio(info: GatewayPricing, group: string | undefined): number {
  const usable = Object.keys(info.usableGroups);
  const name = group ?? (usable.length === 1 ? usable[0] : 'default');
  return (name !== undefined && Object.hasOwn(info.groupRatio, name) ? info.groupRatio[name] : undefined) ?? 1;
}

/**
 * A request's worst case: every prompt token at full price (no cache), and as many
 * completion tokens as it allows (`max_tokens` and its names, else the model's
 * `maxOutputTokens` in modelRules). A budgeted chat, completions or responses call with
 * neither is refused: its cost has no bound.
 */
function worstUsage(call: CostCall, request: SentRequest): Billable {
  const body = isRecord(request.json) ? request.json : {};
  const zero: Billable = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, cacheCreationTokens: 0, imageTokens: 0, audioInputTokens: 0, audioOutputTokens: 0, claudeStyle: false };
  const prompt = promptEstimate(body);
  if (!['chat/completions', 'completions', 'responses'].includes(call.path)) return { ...zero, promptTokens: prompt };
  const limits = [body.max_tokens, body.max_completion_tokens, body.max_output_tokens].filter((v): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0);
  // The largest, where a body names several: a model may read any of them.
  const limit = limits.length > 0 ? Math.max(...limits) : undefined;
  const output = limit ?? maxOutputTokensOf(call.config.modelRules, request.model ?? '');
  if (output === undefined) {
    throw new ValidationError('max_tokens', `is needed for a call one of the client's budgets holds: without it (or modelRules['${request.model}'].maxOutputTokens) its cost has no bound`);
  }
  const n = typeof body.n === 'number' && Number.isInteger(body.n) && body.n > 1 ? body.n : 1;
  return { ...zero, promptTokens: prompt, completionTokens: output * n };
}

/** An upper bound on a body's prompt tokens: its text's length, with each inline image or file counted as IMAGE_TOKENS. */
function promptEstimate(body: Record<string, unknown>): number {
  const { model: _, ...rest } = body;
  let images = 0;
  const text = JSON.stringify(rest, (_key, value: unknown) => {
    // An inline file's bytes are not its tokens: each image or file part counts IMAGE_TOKENS instead.
    if (typeof value === 'string' && value.startsWith('data:')) return '';
    if (isRecord(value) && typeof value.type === 'string' && /image|file|audio/.test(value.type)) images++;
    return value;
  });
  return (text?.length ?? 0) + images * IMAGE_TOKENS;
}
