import { pricingEntry } from './accounting.js';
import { GROUP_RATIO, priceQuota, QUOTA_PER_UNIT, ratioQuota, tieredQuota, videoQuota, VIDEO_PRICES, type BillTokens } from './billing.js';
import type { MockModel } from './catalog.js';

// The mock's per-key bills and new-api's endpoints that read them. Shapes from
// QuantumNous/new-api: the log row is model/log.go Log as formatUserLogs hands it to a user
// (826aad11c3e14071f9bbed37c347f9c1c8dda651 for the columns), GET /api/log/token is
// controller/log.go GetLogByKey over model.GetLogByTokenId (newest first, at most
// common.MaxRecentItems = 100, no paging: common/constants.go cfc5ffac7259f6d478a15058fe318ef9d8aba1a9);
// GET /api/usage/token is controller/token.go GetTokenUsage; the dashboard routes are
// controller/billing.go GetSubscription and GetUsage (b1685def6180c00b5fb96ade1ba1a262296a47f5),
// in USD as quota_display_type 'USD' shows them; routes from router/api-router.go
// (d420198f0bf65bcb87944a37f497714f864796f8).

/** What an endpoint handler reports for the call it answered, for the mock to bill. */
export type MockCharge =
  | ({ kind: 'tokens'; model: string; stream: boolean } & BillTokens)
  | { kind: 'request'; model: string; stream: boolean; prompt: number; completion: number; n?: number | undefined }
  | { kind: 'video'; model: string; seconds: number };

/** One consume log row, as `GET /api/log/token` returns it. */
export interface MockLogEntry {
  id: number;
  user_id: number;
  created_at: number;
  type: 2;
  content: string;
  username: string;
  token_name: string;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  use_time: number;
  is_stream: boolean;
  channel: number;
  channel_name: string;
  token_id: number;
  group: string;
  ip: string;
  request_id: string;
  /** A JSON string of the billing details (ratios, price, tier), as new-api stores it. */
  other: string;
}

/** The granted quota of the mock's key: 10 USD. */
export const DEFAULT_QUOTA = 5_000_000;
/** `common.MaxRecentItems`: the rows `/api/log/token` returns. */
const MAX_RECENT_ITEMS = 100;
const TOKEN_NAME = 'mock-token';

/** The quota of one call and the `other` details of its log row. */
export function bill(charge: MockCharge, model: MockModel | undefined): { quota: number; other: Record<string, unknown> } {
  if (charge.kind === 'video') return { quota: videoQuota(charge.seconds), other: { model_price: VIDEO_PRICES[charge.seconds], group_ratio: GROUP_RATIO, seconds: charge.seconds } };
  const price = model ? pricingEntry(model) : undefined;
  if (!price) return { quota: 0, other: {} };
  if (price.quota_type === 1) {
    const n = charge.kind === 'request' ? (charge.n ?? 1) : 1;
    return { quota: priceQuota(price.model_price, n), other: { model_price: price.model_price, group_ratio: GROUP_RATIO, ...(n !== 1 ? { n } : {}) } };
  }
  const tokens: BillTokens = charge.kind === 'tokens' ? charge : { prompt: charge.prompt, completion: charge.completion };
  if (price.billing_mode === 'tiered_expr' && price.billing_expr !== undefined) {
    const { quota, tier } = tieredQuota(price.billing_expr, tokens);
    return { quota, other: { billing_mode: 'tiered_expr', expr_b64: btoa(price.billing_expr), matched_tier: tier, group_ratio: GROUP_RATIO } };
  }
  const ratios = { model: price.model_ratio, completion: price.completion_ratio, cache: price.cache_ratio, createCache: price.create_cache_ratio };
  return {
    quota: ratioQuota(tokens, ratios),
    other: {
      model_ratio: price.model_ratio,
      group_ratio: GROUP_RATIO,
      completion_ratio: price.completion_ratio,
      cache_tokens: tokens.cached ?? 0,
      cache_ratio: price.cache_ratio ?? 1,
      cache_creation_tokens: tokens.cacheCreation ?? 0,
      cache_creation_ratio: price.create_cache_ratio ?? 1,
      // new-api's ratio_setting.GetModelPrice answers -1 for a model priced by ratios.
      model_price: -1,
    },
  };
}

/** Every key's consume log, newest last. */
export function createLedger(granted: number) {
  const logs = new Map<string, MockLogEntry[]>();
  const used = (key: string) => (logs.get(key) ?? []).reduce((sum, row) => sum + row.quota, 0);
  return {
    /** Records the bill of an answered call under `key`. */
    record(key: string, requestId: string, charge: MockCharge, model: MockModel | undefined, nowMs: number): MockLogEntry {
      const { quota, other } = bill(charge, model);
      const rows = logs.get(key) ?? [];
      const tokens = charge.kind === 'video' ? { prompt: 0, completion: 0 } : charge;
      const row: MockLogEntry = {
        id: 0,
        user_id: 1,
        created_at: Math.floor(nowMs / 1000),
        type: 2,
        content: '',
        username: 'mock',
        token_name: TOKEN_NAME,
        model_name: charge.model,
        quota,
        prompt_tokens: tokens.prompt,
        completion_tokens: tokens.completion,
        use_time: 0,
        is_stream: charge.kind !== 'video' && charge.stream,
        channel: 1,
        channel_name: '',
        token_id: 1,
        group: 'default',
        ip: '',
        request_id: requestId,
        other: JSON.stringify(other),
      };
      rows.push(row);
      logs.set(key, rows);
      return row;
    },
    /** `GET /api/log/token`: the key's newest rows first, numbered from 1 as formatUserLogs does. */
    logBody(key: string) {
      const rows = [...(logs.get(key) ?? [])].reverse().slice(0, MAX_RECENT_ITEMS);
      return { success: true, message: '', data: rows.map((row, i) => ({ ...row, id: i + 1 })) };
    },
    /** `GET /api/usage/token` */
    usageBody(key: string) {
      const spent = used(key);
      return {
        code: true,
        message: 'ok',
        data: {
          object: 'token_usage',
          name: TOKEN_NAME,
          total_granted: granted,
          total_used: spent,
          total_available: granted - spent,
          unlimited_quota: false,
          model_limits: {},
          model_limits_enabled: false,
          expires_at: 0,
        },
      };
    },
    /** `GET /dashboard/billing/subscription`: the granted quota in USD (remaining + used, as new-api sums it). */
    subscriptionBody() {
      const amount = granted / QUOTA_PER_UNIT;
      return { object: 'billing_subscription', has_payment_method: true, soft_limit_usd: amount, hard_limit_usd: amount, system_hard_limit_usd: amount, access_until: 0 };
    },
    /** `GET /dashboard/billing/usage`: the quota used, in cents of USD (`total_usage` is amount × 100). */
    billingUsageBody(key: string) {
      return { object: 'list', total_usage: (used(key) / QUOTA_PER_UNIT) * 100 };
    },
    clear: () => logs.clear(),
  };
}

export type Ledger = ReturnType<typeof createLedger>;
