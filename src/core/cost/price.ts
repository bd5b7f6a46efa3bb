import { isRecord } from '../../internal/is-record.js';
import type { PricingEntry } from '../gateway-info/pricing-schema.js';
import { tokenCount } from '../usage/usage.js';
import { billingExprVariables, evaluateBillingExpr } from './billing-expr.js';

// The quota new-api charges for one answer, worked out on the client from the gateway's own
// price table (/api/pricing) and the answer's usage. The rules follow QuantumNous/new-api:
//
// - Ratio-priced text: service/text_quota.go `calculateTextQuotaSummary` at
//   00899e664780c5bfa544e261a2ce6092af96d14b (formerly relay/compatible_handler.go
//   `postConsumeQuota`, cbf1968305924efb6d3855760f0a4d650c3520c6). In shopspring decimals:
//     base   = prompt − cached − cache_creation − image   (OpenAI-style usage; Anthropic-style
//              usage reports input without the cache, so only image is taken out), floored at 0
//     prompt = base + cached × cache_ratio + cache_creation × create_cache_ratio + image × image_ratio
//     quota  = round((prompt + completion × completion_ratio) × model_ratio × group_ratio)
//   rounded half away from zero (decimal.Round(0)); a charge ≤ 0 with a non-zero ratio becomes 1;
//   no tokens at all (prompt + completion = 0) costs 0. Missing cache/creation/image ratios are
//   1, 1.25 and 1 (pkg/billingexpr/expr.md, "旧定价转换", at 4b1ad717dd2227f4581828a73e4cde471ff3bb31).
// - Audio models (service/quota.go `calculateAudioQuota`, the version in use with
//   `PostAudioConsumeQuota` beside 00899e66): text_in + text_out × completion_ratio +
//   audio_in × audio_ratio + audio_out × audio_ratio × audio_completion_ratio, × model_ratio ×
//   group_ratio, minimum 1, rounded. Applied here when the usage has audio tokens and the
//   table gives the model an audio_ratio; otherwise audio stays in the prompt, as the text path
//   does (its separate Gemini audio-input price is a server setting /api/pricing does not send).
// - Per-request models: model_price × quota_per_unit × group_ratio (text_quota.go, the
//   `UsePrice` branch; relay/helper/price.go `ModelPriceHelper`), times the request count an
//   image call multiplies in through its other-ratios (`n`), rounded.
// - tiered_expr: the expression's value / 1e6 × quota_per_unit × group_ratio, math.Round
//   (pkg/billingexpr/settle.go `ComputeTieredQuotaWithRequest` and round.go at
//   a30f2f357798368210ff3fab6c86a5f795eaf414), with p and c reduced by the sub-categories the
//   expression prices on its own (service/tiered_settle.go `BuildTieredTokenParams`, same commit).
//
// Not modelled (each adds to new-api's charge, so the figure here is a floor when they apply):
// tool surcharges — web search, file search, Google search, image generation calls — priced per
// thousand calls × group_ratio × quota_per_unit (text_quota.go `calculateTextToolCallSurcharge`);
// Claude 5m/1h cache-creation split (1h at create_cache_ratio × 6/3.75, price.go
// `claudeCacheCreation1hMultiplier`); OpenRouter cache-creation inference; a host's per-model
// minimum charge of 10 (expr.md); the int32 saturation of the server's quota column.

/** What an answer used, as new-api bills it (every count a whole number ≥ 0). */
export interface Billable {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  cacheCreationTokens: number;
  imageTokens: number;
  audioInputTokens: number;
  audioOutputTokens: number;
  /** Anthropic-style usage: prompt tokens exclude the cache. */
  claudeStyle: boolean;
  /** True when the answer's usage left out its prompt count or gave a figure out of bounds (read as 0). */
  incomplete?: boolean | undefined;
}

export interface PriceRequest {
  entry: PricingEntry;
  groupRatio: number;
  quotaPerUnit: number;
  usage?: Billable | undefined;
  /** per-request models: how many (images `n`), default 1 */
  requests?: number | undefined;
  /** a video's duration in seconds (the seed gateway prices videos 5 s 0.08 USD, 10 s 0.15, 15 s 0.30, 20 s 0.50) */
  videoSeconds?: number | undefined;
}

export interface Priced {
  quota: number;
  /** true when a tiered expression could not be evaluated and the ratios were used instead, or the usage lacked figures */
  estimated: boolean;
}

/** The seed gateway's video prices in USD by duration (seconds). */
const VIDEO_PRICES: ReadonlyArray<readonly [seconds: number, usd: number]> = [
  [5, 0.08],
  [10, 0.15],
  [15, 0.3],
  [20, 0.5],
];

/** The most requests one call is priced for (new-api caps an image call's `n` at 128, expr.md "Image Quantity"). */
const MAX_REQUESTS = 128;

/** new-api's default ratios when the table leaves one out (1 for cache reads and images, 1.25 for cache writes). */
const DEFAULT_CACHE_RATIO = 1;
const DEFAULT_CREATE_CACHE_RATIO = 1.25;
const DEFAULT_IMAGE_RATIO = 1;

/** The quota of one call as new-api bills it. */
export function priceQuota(request: PriceRequest): Priced {
  const { entry } = request;
  const groupRatio = finiteOr(request.groupRatio, 1);
  const quotaPerUnit = finiteOr(request.quotaPerUnit, 0);
  if (request.videoSeconds !== undefined) return videoQuota(request.videoSeconds, quotaPerUnit, groupRatio, requestCount(request.requests));
  if (entry.quotaType === 1) return perRequestQuota(entry.modelPrice, quotaPerUnit, groupRatio, requestCount(request.requests));
  const usage = request.usage;
  if (entry.billingMode === 'tiered_expr' && entry.billingExpr) {
    const tiered = tieredQuota(entry.billingExpr, usage ?? EMPTY_USAGE, quotaPerUnit, groupRatio);
    if (tiered !== undefined) return { quota: tiered.quota, estimated: tiered.estimated || usage === undefined || usage.incomplete === true };
    return { quota: ratioQuota(entry, usage ?? EMPTY_USAGE, groupRatio).quota, estimated: true };
  }
  if (!usage) return { quota: 0, estimated: true };
  const priced = ratioQuota(entry, usage, groupRatio);
  return { quota: priced.quota, estimated: priced.estimated || usage.incomplete === true };
}

const EMPTY_USAGE: Billable = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, cacheCreationTokens: 0, imageTokens: 0, audioInputTokens: 0, audioOutputTokens: 0, claudeStyle: false };

function finiteOr(value: number, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** A whole request count from 1 to MAX_REQUESTS (default 1). */
function requestCount(requests: number | undefined): number {
  return typeof requests === 'number' && Number.isInteger(requests) && requests >= 1 ? Math.min(requests, MAX_REQUESTS) : 1;
}

/** A count as the whole number ≥ 0 the formula needs (bounded again: a Billable may come from anywhere). */
function count(value: number): number {
  return tokenCount(value) ?? 0;
}

/** model_price × quota_per_unit × group_ratio × requests, rounded half away from zero. */
function perRequestQuota(modelPrice: number, quotaPerUnit: number, groupRatio: number, requests: number): Priced {
  const quota = Decimal.from(modelPrice).mul(Decimal.from(quotaPerUnit)).mul(Decimal.from(groupRatio)).mul(Decimal.from(requests)).round();
  return bounded(quota, false);
}

/** A video by its duration: the seed gateway's price for the shortest tier that covers it. */
function videoQuota(seconds: number, quotaPerUnit: number, groupRatio: number, requests: number): Priced {
  if (!Number.isFinite(seconds) || seconds <= 0) return { quota: 0, estimated: true };
  const exact = VIDEO_PRICES.find(([s]) => s === seconds);
  const tier = exact ?? VIDEO_PRICES.find(([s]) => s >= seconds);
  if (tier) {
    const priced = perRequestQuota(tier[1], quotaPerUnit, groupRatio, requests);
    return { quota: priced.quota, estimated: priced.estimated || exact === undefined };
  }
  // Longer than the table: the last tier's price per second (a guess, so estimated).
  const last = VIDEO_PRICES[VIDEO_PRICES.length - 1] as readonly [number, number];
  const priced = perRequestQuota((last[1] / last[0]) * seconds, quotaPerUnit, groupRatio, requests);
  return { quota: priced.quota, estimated: true };
}

/** The ratio formula (text, or audio when the answer has audio tokens and the model an audio ratio). */
function ratioQuota(entry: PricingEntry, usage: Billable, groupRatio: number): Priced {
  const prompt = count(usage.promptTokens);
  const completion = count(usage.completionTokens);
  const ratio = Decimal.from(entry.modelRatio).mul(Decimal.from(groupRatio));
  // text_quota.go: no tokens at all is no charge (the upstream sent no usage, or timed out).
  if (prompt + completion === 0) return { quota: 0, estimated: false };
  const audioIn = count(usage.audioInputTokens);
  const audioOut = count(usage.audioOutputTokens);
  const total = entry.audioRatio !== undefined && audioIn + audioOut > 0 ? audioTokens(entry, prompt, completion, audioIn, audioOut) : textTokens(entry, usage, prompt, completion);
  let quota = total.mul(ratio);
  // A priced model never charges nothing for tokens it used.
  if (!ratio.isZero() && quota.sign() <= 0) quota = Decimal.from(1);
  const rounded = quota.round();
  return bounded(!ratio.isZero() && rounded === 0 ? 1 : rounded, false);
}

/** The prompt and completion of a text answer in prompt-token units, before model × group ratio. */
function textTokens(entry: PricingEntry, usage: Billable, prompt: number, completion: number): Decimal {
  const cached = count(usage.cachedTokens);
  const creation = count(usage.cacheCreationTokens);
  const image = count(usage.imageTokens);
  let base = prompt;
  // Anthropic-style usage already leaves the cache out of input_tokens: nothing to subtract.
  if (!usage.claudeStyle) base -= cached + creation;
  base -= image;
  // OpenAI can report cached + cache-write above prompt_tokens; new-api floors the rest at 0.
  base = Math.max(base, 0);
  return Decimal.from(base)
    .add(Decimal.from(cached).mul(Decimal.from(entry.cacheRatio ?? DEFAULT_CACHE_RATIO)))
    .add(Decimal.from(creation).mul(Decimal.from(entry.createCacheRatio ?? DEFAULT_CREATE_CACHE_RATIO)))
    .add(Decimal.from(image).mul(Decimal.from(entry.imageRatio ?? DEFAULT_IMAGE_RATIO)))
    .add(Decimal.from(completion).mul(Decimal.from(entry.completionRatio)));
}

/** service/quota.go `calculateAudioQuota`: text and audio of each side at their own ratios. */
function audioTokens(entry: PricingEntry, prompt: number, completion: number, audioIn: number, audioOut: number): Decimal {
  const audioRatio = Decimal.from(entry.audioRatio ?? 1);
  const audioCompletionRatio = Decimal.from(entry.audioCompletionRatio ?? 1);
  return Decimal.from(Math.max(prompt - audioIn, 0))
    .add(Decimal.from(Math.max(completion - audioOut, 0)).mul(Decimal.from(entry.completionRatio)))
    .add(Decimal.from(audioIn).mul(audioRatio))
    .add(Decimal.from(audioOut).mul(audioRatio).mul(audioCompletionRatio));
}

/** The tiered expression's quota, or undefined when it cannot be evaluated here. */
function tieredQuota(expr: string, usage: Billable, quotaPerUnit: number, groupRatio: number): Priced | undefined {
  const used = billingExprVariables(expr);
  if (!used) return undefined;
  const cost = evaluateBillingExpr(expr, tokenParams(usage, used));
  // settle.go refuses a negative, NaN or infinite cost.
  if (cost === undefined || cost < 0) return undefined;
  // settle.go `quotaConversion` (v1) then × group ratio, in float64 as Go does, then math.Round.
  const quota = ((cost / 1_000_000) * quotaPerUnit) * groupRatio;
  if (!Number.isFinite(quota)) return undefined;
  return bounded(Math.round(quota), false);
}

/** tiered_settle.go `BuildTieredTokenParams`: the expression's variables from the usage. */
function tokenParams(usage: Billable, used: Set<string>): Record<string, number> {
  let p = count(usage.promptTokens);
  let c = count(usage.completionTokens);
  const cr = count(usage.cachedTokens);
  const cc = count(usage.cacheCreationTokens);
  const img = count(usage.imageTokens);
  const ai = count(usage.audioInputTokens);
  const ao = count(usage.audioOutputTokens);
  // len is the whole input: Anthropic-style input_tokens leave the cache out, so it is added back.
  const len = usage.claudeStyle ? p + cr + cc : p;
  if (!usage.claudeStyle) {
    if (used.has('cr')) p -= cr;
    if (used.has('cc')) p -= cc;
    if (used.has('img')) p -= img;
    if (used.has('ai')) p -= ai;
    if (used.has('ao')) c -= ao;
  }
  return { p: Math.max(p, 0), c: Math.max(c, 0), len, cr, cc, cc1h: 0, img, img_o: 0, ai, ao };
}

/** A quota within Number.MAX_SAFE_INTEGER; a larger one is capped and marked estimated. */
function bounded(quota: number, estimated: boolean): Priced {
  if (!Number.isFinite(quota) || quota > Number.MAX_SAFE_INTEGER) return { quota: Number.MAX_SAFE_INTEGER, estimated: true };
  return { quota: Math.max(quota, 0), estimated };
}

/**
 * Exact decimal arithmetic, as new-api's shopspring decimals: a number enters as its shortest
 * decimal form (what decimal.NewFromFloat reads), products and sums are exact, and round()
 * goes half away from zero (decimal.Round(0)). Value = units / 10^scale.
 */
class Decimal {
  private constructor(
    private readonly units: bigint,
    private readonly scale: number,
  ) {}

  /** The shortest decimal form of a finite number (0 for anything else). */
  static from(value: number): Decimal {
    if (!Number.isFinite(value)) return new Decimal(0n, 0);
    const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
    if (!match) return new Decimal(0n, 0);
    const [, sign = '', whole = '0', fraction = '', exponent = '0'] = match;
    let units = BigInt(sign + whole + fraction);
    let scale = fraction.length - Number(exponent);
    if (scale < 0) {
      units *= 10n ** BigInt(-scale);
      scale = 0;
    }
    return new Decimal(units, scale);
  }

  private aligned(other: Decimal): [bigint, bigint, number] {
    const scale = Math.max(this.scale, other.scale);
    return [this.units * 10n ** BigInt(scale - this.scale), other.units * 10n ** BigInt(scale - other.scale), scale];
  }

  add(other: Decimal): Decimal {
    const [a, b, scale] = this.aligned(other);
    return new Decimal(a + b, scale);
  }

  mul(other: Decimal): Decimal {
    return new Decimal(this.units * other.units, this.scale + other.scale);
  }

  isZero(): boolean {
    return this.units === 0n;
  }

  sign(): number {
    return this.units > 0n ? 1 : this.units < 0n ? -1 : 0;
  }

  /** The nearest whole number, halves away from zero. */
  round(): number {
    const divisor = 10n ** BigInt(this.scale);
    const magnitude = this.units < 0n ? -this.units : this.units;
    let whole = magnitude / divisor;
    if ((magnitude % divisor) * 2n >= divisor) whole += 1n;
    const signed = this.units < 0n ? -whole : whole;
    return signed > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(signed);
  }
}

/**
 * The Billable of an answer body (chat, completions, responses, embeddings; OpenAI,
 * Anthropic-style, DeepSeek names), undefined when it has no usage. Every figure from the
 * network is bounded with tokenCount: a figure out of bounds reads as 0 and marks it incomplete.
 */
export function billableUsage(data: unknown): Billable | undefined {
  const usage = isRecord(data) && isRecord(data.usage) ? data.usage : undefined;
  if (!usage) return undefined;
  let incomplete = false;
  /** The first of the fields present, bounded; a present but unbelievable figure marks the usage incomplete. */
  const read = (...values: unknown[]): number | undefined => {
    for (const value of values) {
      if (value === undefined || value === null) continue;
      const n = tokenCount(value);
      if (n === undefined) incomplete = true;
      return n;
    }
    return undefined;
  };
  const inputDetails = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : isRecord(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const outputDetails = isRecord(usage.completion_tokens_details) ? usage.completion_tokens_details : isRecord(usage.output_tokens_details) ? usage.output_tokens_details : {};
  // Anthropic's Messages usage: input_tokens without the cache, which it reports beside it.
  const claudeStyle = usage.prompt_tokens === undefined && (usage.cache_read_input_tokens !== undefined || usage.cache_creation_input_tokens !== undefined || (isRecord(data) && data.type === 'message'));
  const prompt = read(usage.prompt_tokens, usage.input_tokens);
  if (prompt === undefined) incomplete = true;
  const billable: Billable = {
    promptTokens: prompt ?? 0,
    completionTokens: read(usage.completion_tokens, usage.output_tokens) ?? 0,
    // DeepSeek: prompt_cache_hit_tokens (inside prompt_tokens); Anthropic: cache_read_input_tokens.
    cachedTokens: read(inputDetails.cached_tokens, usage.prompt_cache_hit_tokens, usage.cache_read_input_tokens) ?? 0,
    // new-api's dto: prompt_tokens_details.cached_creation_tokens; Anthropic: cache_creation_input_tokens.
    cacheCreationTokens: read(inputDetails.cached_creation_tokens, usage.cache_creation_input_tokens) ?? 0,
    imageTokens: read(inputDetails.image_tokens) ?? 0,
    audioInputTokens: read(inputDetails.audio_tokens) ?? 0,
    audioOutputTokens: read(outputDetails.audio_tokens) ?? 0,
    claudeStyle,
  };
  if (!claudeStyle && cutToPrompt(billable)) incomplete = true;
  // new-api counts the tokens itself when a vendor reports none: an answer that used nothing is a usage not reported.
  if (billable.promptTokens === 0 && billable.completionTokens === 0) incomplete = true;
  if (incomplete) billable.incomplete = true;
  return billable;
}

/**
 * OpenAI-style usage counts the cache inside the prompt: parts that add up to more than the
 * prompt are not believed, each cut to what is left. Whether any was cut.
 */
function cutToPrompt(billable: Billable): boolean {
  let left = billable.promptTokens;
  let cut = false;
  for (const part of ['cachedTokens', 'cacheCreationTokens', 'imageTokens'] as const) {
    if (billable[part] > left) {
      billable[part] = left;
      cut = true;
    }
    left -= billable[part];
  }
  return cut;
}
