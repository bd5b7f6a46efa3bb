import * as z from 'zod/mini';
import { isRecord } from '../../internal/is-record.js';

// The bodies of new-api's GET /api/pricing and GET /api/status, read as untrusted input: from
// the network, and again from a shared store. Shapes from QuantumNous/new-api:
// model/pricing.go `Pricing` (bed127f2b3dd6140c44c5db43430fc26cdb3a8fb), controller/pricing.go
// `GetPricing` (abc47afe29bacb2c9af196a8a7c8bd30911a1ffd), controller/misc.go `GetStatus`
// (cba3bd19be9c329271584140b38c0deebea73083), constant/endpoint_type.go
// (5a344705958b342ad69849caf4d6aaab5a230c2a). Unknown fields are ignored; an entry that breaks
// a rule is dropped, never the whole table.

/**
 * How new-api names the API a model answers on (`supported_endpoint_types`). Its constants at
 * QuantumNous/new-api 5a344705958b342ad69849caf4d6aaab5a230c2a, constant/endpoint_type.go;
 * any other string a newer gateway sends is kept as it is.
 */
export type EndpointType = 'openai' | 'openai-response' | 'openai-response-compact' | 'anthropic' | 'gemini' | 'jina-rerank' | 'image-generation' | 'embeddings' | 'openai-video' | (string & {});

/** One model of the gateway's price table (`/api/pricing` `data[]`), in camelCase; ratios as the gateway applies them. */
export interface PricingEntry {
  /** `model_name`: the id to call it by. */
  modelName: string;
  /** `quota_type`: 0 priced by tokens (the ratios), 1 per request (`modelPrice`). */
  quotaType: 0 | 1;
  /** `model_ratio`: quota per token is this × group ratio (0 for a per-request model). */
  modelRatio: number;
  /** `model_price`: USD per request, for `quotaType` 1 (0 otherwise). */
  modelPrice: number;
  /** `completion_ratio`: a completion token costs this many prompt tokens. */
  completionRatio: number;
  cacheRatio?: number | undefined;
  createCacheRatio?: number | undefined;
  imageRatio?: number | undefined;
  audioRatio?: number | undefined;
  audioCompletionRatio?: number | undefined;
  /** `enable_groups`: the groups whose channels serve the model. */
  enableGroups: readonly string[];
  /** `supported_endpoint_types`, the preferred first (`[]` when the gateway sent null). */
  supportedEndpointTypes: readonly EndpointType[];
  /** `billing_mode`, e.g. `tiered_expr` (then `billingExpr` holds the expression). */
  billingMode?: string | undefined;
  billingExpr?: string | undefined;
}

/** The most entries read from one table: the rest are ignored. */
export const MAX_ENTRIES = 10_000;
/** The most groups read from `group_ratio` and `usable_group`. */
const MAX_GROUPS = 1_000;
/** The quota of 1 USD when `/api/status` does not say (new-api's default). */
export const DEFAULT_QUOTA_PER_UNIT = 500_000;

const ratio = z.number().check(z.gte(0), z.lte(1e9));
const optionalRatio = z.optional(z.nullable(ratio));
const name = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));
const names = (max: number) => z.optional(z.nullable(z.array(name(max)).check(z.maxLength(256))));

const entrySchema = z.object({
  model_name: name(256),
  // Older or trimmed tables leave these out: a model is kept (ratio-priced, completion at the prompt's price).
  quota_type: z.optional(z.union([z.literal(0), z.literal(1)])),
  model_ratio: ratio,
  model_price: z.optional(ratio),
  completion_ratio: z.optional(ratio),
  cache_ratio: optionalRatio,
  create_cache_ratio: optionalRatio,
  image_ratio: optionalRatio,
  audio_ratio: optionalRatio,
  audio_completion_ratio: optionalRatio,
  enable_groups: names(128),
  supported_endpoint_types: names(64),
  billing_mode: z.optional(z.nullable(z.string().check(z.maxLength(64)))),
  billing_expr: z.optional(z.nullable(z.string().check(z.maxLength(16_384)))),
});
type WireEntry = z.infer<typeof entrySchema>;

const statusSchema = z.object({
  // new-api keeps quotas as whole numbers: a unit of less than one quota per USD prices nothing.
  quota_per_unit: z.number().check(z.gte(1), z.lte(1e9)),
  quota_display_type: z.optional(z.nullable(z.string().check(z.maxLength(32)))),
  display_in_currency: z.optional(z.nullable(z.boolean())),
});

/** What `/api/pricing` says: the table, and the groups this key may use with their ratios. */
export interface PricingTable {
  models: Map<string, PricingEntry>;
  groupRatio: Record<string, number>;
  usableGroups: Record<string, string>;
}

/** The table in a `/api/pricing` body, or null when the body is not one (`success` not true, no `data` array). */
export function decodePricing(body: unknown): PricingTable | null {
  if (!isRecord(body) || body.success !== true || !Array.isArray(body.data)) return null;
  const models = new Map<string, PricingEntry>();
  for (const item of body.data.slice(0, MAX_ENTRIES)) {
    const parsed = z.safeParse(entrySchema, item);
    if (parsed.success) models.set(parsed.data.model_name, fromWire(parsed.data));
  }
  return { models, groupRatio: readGroups(body.group_ratio, (v) => (z.safeParse(ratio, v).success ? (v as number) : undefined)), usableGroups: readGroups(body.usable_group, (v) => (typeof v === 'string' && v.length <= 256 ? v : undefined)) };
}

/** `quota_per_unit` and the display unit in a `/api/status` body; null when it is not one. */
export function decodeStatus(body: unknown): { quotaPerUnit: number; displayType: string | null } | null {
  if (!isRecord(body) || body.success !== true) return null;
  const parsed = z.safeParse(statusSchema, body.data);
  if (!parsed.success) return null;
  const { quota_per_unit, quota_display_type, display_in_currency } = parsed.data;
  // Before quota_display_type, display_in_currency said USD (true) or tokens (false).
  const displayType = quota_display_type || (typeof display_in_currency === 'boolean' ? (display_in_currency ? 'USD' : 'TOKENS') : null);
  return { quotaPerUnit: quota_per_unit, displayType };
}

/** A table back in the gateway's own shape (what a shared store keeps, read back with {@link decodePricing}). */
export function encodePricing(table: PricingTable): object {
  return { success: true, data: [...table.models.values()].map(toWire), group_ratio: table.groupRatio, usable_group: table.usableGroups };
}

/** The status back in the gateway's own shape (read back with {@link decodeStatus}). */
export function encodeStatus(status: { quotaPerUnit: number; displayType: string | null }): object {
  return { success: true, data: { quota_per_unit: status.quotaPerUnit, quota_display_type: status.displayType } };
}

function readGroups<T>(value: unknown, read: (v: unknown) => T | undefined): Record<string, T> {
  const out: Record<string, T> = {};
  if (!isRecord(value)) return out;
  let count = 0;
  for (const [group, v] of Object.entries(value)) {
    if (count >= MAX_GROUPS) break;
    const read_ = read(v);
    if (read_ === undefined || group.length === 0 || group.length > 128) continue;
    // defineProperty: a group named __proto__ stays a plain key.
    Object.defineProperty(out, group, { value: read_, enumerable: true, writable: true, configurable: true });
    count++;
  }
  return out;
}

function fromWire(w: WireEntry): PricingEntry {
  const entry: PricingEntry = {
    modelName: w.model_name,
    quotaType: w.quota_type ?? 0,
    modelRatio: w.model_ratio,
    modelPrice: w.model_price ?? 0,
    completionRatio: w.completion_ratio ?? 1,
    enableGroups: w.enable_groups ?? [],
    supportedEndpointTypes: w.supported_endpoint_types ?? [],
  };
  if (w.cache_ratio != null) entry.cacheRatio = w.cache_ratio;
  if (w.create_cache_ratio != null) entry.createCacheRatio = w.create_cache_ratio;
  if (w.image_ratio != null) entry.imageRatio = w.image_ratio;
  if (w.audio_ratio != null) entry.audioRatio = w.audio_ratio;
  if (w.audio_completion_ratio != null) entry.audioCompletionRatio = w.audio_completion_ratio;
  if (w.billing_mode) entry.billingMode = w.billing_mode;
  if (w.billing_expr) entry.billingExpr = w.billing_expr;
  return entry;
}

function toWire(e: PricingEntry): WireEntry {
  return {
    model_name: e.modelName,
    quota_type: e.quotaType,
    model_ratio: e.modelRatio,
    model_price: e.modelPrice,
    completion_ratio: e.completionRatio,
    cache_ratio: e.cacheRatio,
    create_cache_ratio: e.createCacheRatio,
    image_ratio: e.imageRatio,
    audio_ratio: e.audioRatio,
    audio_completion_ratio: e.audioCompletionRatio,
    enable_groups: [...e.enableGroups],
    supported_endpoint_types: [...e.supportedEndpointTypes],
    billing_mode: e.billingMode,
    billing_expr: e.billingExpr,
  };
}
