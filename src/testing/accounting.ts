import type { MockModel } from './catalog.js';
import { strictFamilies } from './families.js';
import { QUOTA_PER_UNIT } from './billing.js';

// The mock's new-api accounting endpoints at the origin's root: GET /api/pricing (the price
// table of its catalogue) and GET /api/status (the quota unit). Shapes from QuantumNous/new-api:
// controller/pricing.go GetPricing (abc47afe29bacb2c9af196a8a7c8bd30911a1ffd), model/pricing.go
// Pricing (bed127f2b3dd6140c44c5db43430fc26cdb3a8fb), controller/misc.go GetStatus
// (cba3bd19be9c329271584140b38c0deebea73083); endpoint names from constant/endpoint_type.go
// (5a344705958b342ad69849caf4d6aaab5a230c2a).

/** Ratios of a token-priced chat or completion model, by owner: deterministic stand-ins, not any vendor's prices. */
const OWNER_RATIOS: Record<string, { model: number; completion: number; cache?: number; createCache?: number }> = {
  openai: { model: 1.25, completion: 4, cache: 0.5 },
  anthropic: { model: 1.5, completion: 5, cache: 0.1, createCache: 1.25 },
  google: { model: 0.625, completion: 4, cache: 0.25 },
  deepseek: { model: 0.135, completion: 4, cache: 0.1 },
};
const OTHER_RATIOS = { model: 1, completion: 1 };

/** USD per request of the per-request kinds. */
const REQUEST_PRICES: Partial<Record<MockModel['kind'], number>> = { image: 0.04, video: 0.5 };

/** USD per request of the per-request chat model of the default catalogue (quota_type 1). */
export const PER_REQUEST_CHAT_PRICE = 0.01;

/**
 * The tiered model's expression, in new-api's grammar (pkg/billingexpr/expr.md at
 * 695784ab6121fbadd8cf8a8be60cf2de370ffcf0): $ per 1M tokens, a dearer tier past 1,000
 * prompt tokens (the mock counts words, so a test reaches it), cached reads priced apart.
 */
export const TIERED_CHAT_EXPR = 'len <= 1000 ? tier("standard", p * 2 + c * 8 + cr * 0.2) : tier("long_context", p * 4 + c * 16 + cr * 0.4)';

/** Catalogue ids priced otherwise than their kind and owner say. */
const BY_ID: Record<string, { quota_type: 0 | 1; model_ratio: number; model_price: number; completion_ratio: number; billing_mode?: string; billing_expr?: string }> = {
  'per-request-chat': { quota_type: 1, model_ratio: 0, model_price: PER_REQUEST_CHAT_PRICE, completion_ratio: 0 },
  // new-api lists a tiered model with its ratios and the expression that overrides them (model/pricing.go).
  'tiered-chat': { quota_type: 0, model_ratio: 1, model_price: 0, completion_ratio: 4, billing_mode: 'tiered_expr', billing_expr: TIERED_CHAT_EXPR },
};

const responsesOnly = new Set(strictFamilies.filter((f) => f.endpoint === 'responses-only').map((f) => f.name));

/** `supported_endpoint_types` of a catalogue model, as new-api names them. */
function endpointTypes(m: MockModel): string[] {
  if (m.kind === 'embedding') return ['embeddings'];
  if (m.kind === 'image') return ['image-generation'];
  if (m.kind === 'video') return ['openai-video'];
  if (m.family && responsesOnly.has(m.family)) return ['openai-response'];
  return ['openai'];
}

/** One `data[]` entry of `/api/pricing` for a catalogue model: the price the mock also bills by (billing.ts). */
export function pricingEntry(m: MockModel): PricingEntry {
  const base = { model_name: m.id, owner_by: m.owned_by, enable_groups: ['default'], supported_endpoint_types: endpointTypes(m) };
  const byId = BY_ID[m.id];
  if (byId) return { ...base, ...byId };
  const price = REQUEST_PRICES[m.kind];
  if (price !== undefined) return { ...base, quota_type: 1, model_ratio: 0, model_price: price, completion_ratio: 0 };
  if (m.kind === 'embedding') return { ...base, quota_type: 0, model_ratio: 0.01, model_price: 0, completion_ratio: 1 };
  if (m.kind === 'audio') return { ...base, quota_type: 0, model_ratio: 15, model_price: 0, completion_ratio: 1, audio_ratio: 1, audio_completion_ratio: 1 };
  const r: { model: number; completion: number; cache?: number; createCache?: number } = OWNER_RATIOS[m.owned_by] ?? OTHER_RATIOS;
  return {
    ...base,
    quota_type: 0,
    model_ratio: r.model,
    model_price: 0,
    completion_ratio: r.completion,
    ...(r.cache !== undefined ? { cache_ratio: r.cache } : {}),
    ...(r.createCache !== undefined ? { create_cache_ratio: r.createCache } : {}),
  };
}

/** A `data[]` entry of `/api/pricing` (new-api's model/pricing.go Pricing, the fields the mock fills). */
export interface PricingEntry {
  model_name: string;
  owner_by: string;
  enable_groups: string[];
  supported_endpoint_types: string[];
  quota_type: 0 | 1;
  model_ratio: number;
  model_price: number;
  completion_ratio: number;
  cache_ratio?: number;
  create_cache_ratio?: number;
  audio_ratio?: number;
  audio_completion_ratio?: number;
  billing_mode?: string;
  billing_expr?: string;
}

/** The body of `GET /api/pricing`: every catalogue model, the `default` group at ratio 1. */
export function pricingBody(models: readonly MockModel[]) {
  return {
    success: true,
    data: models.map(pricingEntry),
    vendors: [],
    group_ratio: { default: 1 },
    usable_group: { default: 'Default group' },
    supported_endpoint: {
      openai: { path: '/v1/chat/completions', method: 'POST' },
      'openai-response': { path: '/v1/responses', method: 'POST' },
      embeddings: { path: '/v1/embeddings', method: 'POST' },
      'image-generation': { path: '/v1/images/generations', method: 'POST' },
      'openai-video': { path: '/v1/video/generations', method: 'POST' },
    },
    auto_groups: [],
  };
}

/** The body of `GET /api/status`: 500,000 quota per USD, shown in USD. */
export function statusBody() {
  return {
    success: true,
    message: '',
    data: {
      version: 'mock',
      start_time: 1_700_000_000,
      system_name: 'Mock Gateway',
      quota_per_unit: QUOTA_PER_UNIT,
      quota_display_type: 'USD',
      display_in_currency: true,
      enable_task: true,
    },
  };
}
