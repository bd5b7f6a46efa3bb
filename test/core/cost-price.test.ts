import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PricingEntry } from '../../src/core/gateway-info/pricing-schema.js';
import { billingExprVariables, evaluateBillingExpr } from '../../src/core/cost/billing-expr.js';
import { billableUsage, priceQuota, type Billable } from '../../src/core/cost/price.js';

// Cases worked by hand from QuantumNous/new-api: service/text_quota.go
// `calculateTextQuotaSummary` (00899e664780c5bfa544e261a2ce6092af96d14b), service/quota.go
// `calculateAudioQuota`, service/tiered_settle.go `BuildTieredTokenParams` and
// pkg/billingexpr/settle.go (a30f2f357798368210ff3fab6c86a5f795eaf414).

const QPU = 500_000;

function entry(over: Partial<PricingEntry> = {}): PricingEntry {
  return { modelName: 'm', quotaType: 0, modelRatio: 1, modelPrice: 0, completionRatio: 1, enableGroups: ['default'], supportedEndpointTypes: ['openai'], ...over };
}

function usage(over: Partial<Billable> = {}): Billable {
  return { promptTokens: 0, completionTokens: 0, cachedTokens: 0, cacheCreationTokens: 0, imageTokens: 0, audioInputTokens: 0, audioOutputTokens: 0, claudeStyle: false, ...over };
}

const price = (e: Partial<PricingEntry>, u: Partial<Billable> | undefined, groupRatio = 1) => priceQuota({ entry: entry(e), groupRatio, quotaPerUnit: QPU, usage: u && usage(u) });

describe('priceQuota: ratio-priced text (text_quota.go calculateTextQuotaSummary)', () => {
  it('(prompt + completion × completion_ratio) × model_ratio × group_ratio', () => {
    // (1000 + 500 × 4) × 1.25 = 3750
    expect(price({ modelRatio: 1.25, completionRatio: 4 }, { promptTokens: 1000, completionTokens: 500 })).toEqual({ quota: 3750, estimated: false });
  });

  it('applies the group ratio', () => {
    expect(price({ modelRatio: 1.25, completionRatio: 4 }, { promptTokens: 1000, completionTokens: 500 }, 0.5).quota).toBe(1875);
  });

  it('takes cached tokens out of an OpenAI-style prompt and prices them at cache_ratio', () => {
    // base 1000 − 400 = 600; + 400 × 0.5 + 100 × 4 = 1200
    expect(price({ cacheRatio: 0.5, completionRatio: 4 }, { promptTokens: 1000, cachedTokens: 400, completionTokens: 100 }).quota).toBe(1200);
  });

  it('takes cache creation out too, at create_cache_ratio (1.25 when the table leaves it out)', () => {
    // base 1000 − 200 − 300 = 500; + 200 × 0.1 + 300 × 1.25 = 895
    expect(price({ cacheRatio: 0.1 }, { promptTokens: 1000, cachedTokens: 200, cacheCreationTokens: 300 }).quota).toBe(895);
    expect(price({ cacheRatio: 0.1, createCacheRatio: 2 }, { promptTokens: 1000, cachedTokens: 200, cacheCreationTokens: 300 }).quota).toBe(1120);
  });

  it('does not subtract the cache from Anthropic-style usage (input excludes it)', () => {
    const e = { modelRatio: 1.5, completionRatio: 5, cacheRatio: 0.1, createCacheRatio: 1.25 };
    const u = { promptTokens: 1000, cachedTokens: 400, cacheCreationTokens: 200, completionTokens: 100 };
    // Claude: (1000 + 40 + 250 + 500) × 1.5 = 2685; OpenAI: (400 + 40 + 250 + 500) × 1.5 = 1785
    expect(price(e, { ...u, claudeStyle: true }).quota).toBe(2685);
    expect(price(e, { ...u, claudeStyle: false }).quota).toBe(1785);
  });

  it('floors the remaining prompt at 0 when cached + cache-write exceed it', () => {
    // base max(100 − 80 − 50, 0) = 0; + 80 × 0.5 + 50 × 1.25 = 102.5 → 103
    expect(price({ cacheRatio: 0.5 }, { promptTokens: 100, cachedTokens: 80, cacheCreationTokens: 50 }).quota).toBe(103);
  });

  it('prices image tokens at image_ratio', () => {
    // base 1000 − 300 = 700; + 300 × 2 = 1300
    expect(price({ imageRatio: 2 }, { promptTokens: 1000, imageTokens: 300 }).quota).toBe(1300);
  });

  it('prices audio at audio_ratio and audio_completion_ratio (quota.go calculateAudioQuota)', () => {
    // text in 40 + text out 30 × 4 + audio in 60 × 16 + audio out 20 × 16 × 2 = 1760; × 1.25 = 2200
    const e = { modelRatio: 1.25, completionRatio: 4, audioRatio: 16, audioCompletionRatio: 2 };
    expect(price(e, { promptTokens: 100, audioInputTokens: 60, completionTokens: 50, audioOutputTokens: 20 }).quota).toBe(2200);
    // No audio ratio in the table: the text path, audio left in the prompt: (100 + 50 × 4) × 1.25 = 375
    expect(price({ modelRatio: 1.25, completionRatio: 4 }, { promptTokens: 100, audioInputTokens: 60, completionTokens: 50, audioOutputTokens: 20 }).quota).toBe(375);
  });

  it('rounds half away from zero in exact decimals (decimal.Round(0)), not in floats', () => {
    // 5 × 0.5 = 2.5 → 3 (truncation would give 2)
    expect(price({ modelRatio: 0.5 }, { promptTokens: 5 }).quota).toBe(3);
    // 10 × 1.15 is 11.5 in decimals but 11.499999999999998 in floats → 12
    expect(price({ modelRatio: 1.15 }, { promptTokens: 10 }).quota).toBe(12);
    // 2.4 → 2
    expect(price({ modelRatio: 0.4 }, { promptTokens: 6 }).quota).toBe(2);
  });

  it('charges at least 1 when the ratio is not 0 and tokens were used; 0 for no tokens or a free model', () => {
    expect(price({ modelRatio: 0.001 }, { promptTokens: 1 }).quota).toBe(1);
    expect(price({ modelRatio: 5 }, { promptTokens: 0, completionTokens: 0 }).quota).toBe(0);
    expect(price({ modelRatio: 0 }, { promptTokens: 1000, completionTokens: 10 }).quota).toBe(0);
    expect(price({ modelRatio: 1 }, { promptTokens: 1000 }, 0).quota).toBe(0);
  });

  it('says estimated when there is no usage or the usage lacked figures', () => {
    expect(price({}, undefined)).toEqual({ quota: 0, estimated: true });
    expect(price({}, { promptTokens: 10, incomplete: true })).toEqual({ quota: 10, estimated: true });
  });
});

describe('priceQuota: per-request models and videos', () => {
  it('model_price × quota_per_unit × group_ratio, × n', () => {
    const e = { quotaType: 1 as const, modelRatio: 0, modelPrice: 0.04 };
    expect(price(e, undefined)).toEqual({ quota: 20_000, estimated: false });
    expect(price(e, undefined, 1.5).quota).toBe(30_000);
    expect(priceQuota({ entry: entry(e), groupRatio: 1, quotaPerUnit: QPU, requests: 3 }).quota).toBe(60_000);
    // A silly n is one request, a huge one is capped at 128 (new-api's MaxImageN).
    expect(priceQuota({ entry: entry(e), groupRatio: 1, quotaPerUnit: QPU, requests: -2 }).quota).toBe(20_000);
    expect(priceQuota({ entry: entry(e), groupRatio: 1, quotaPerUnit: QPU, requests: 1e9 }).quota).toBe(128 * 20_000);
  });

  it('prices videos by duration: 5 s 0.08, 10 s 0.15, 15 s 0.30, 20 s 0.50 USD', () => {
    const video = (videoSeconds: number, groupRatio = 1) => priceQuota({ entry: entry({ quotaType: 1, modelPrice: 0.1 }), groupRatio, quotaPerUnit: QPU, videoSeconds });
    expect(video(5)).toEqual({ quota: 40_000, estimated: false });
    expect(video(10)).toEqual({ quota: 75_000, estimated: false });
    expect(video(15)).toEqual({ quota: 150_000, estimated: false });
    expect(video(20)).toEqual({ quota: 250_000, estimated: false });
    expect(video(10, 2).quota).toBe(150_000);
    // Between tiers: the tier that covers it, marked estimated.
    expect(video(7)).toEqual({ quota: 75_000, estimated: true });
    expect(video(40).estimated).toBe(true);
    expect(video(Number.NaN)).toEqual({ quota: 0, estimated: true });
  });
});

describe('priceQuota: tiered_expr (settle.go, tiered_settle.go)', () => {
  const expr = 'len <= 200000 ? tier("standard", p * 3 + c * 15 + cr * 0.3) : tier("long", p * 6 + c * 22.5 + cr * 0.6)';
  const tiered = { billingMode: 'tiered_expr', billingExpr: expr, modelRatio: 1.5, completionRatio: 5 };

  it('evaluates the expression with cr taken out of p, $/1M × quota_per_unit × group_ratio', () => {
    // p = 1000 − 200 = 800: 800 × 3 + 500 × 15 + 200 × 0.3 = 9960; / 1e6 × 500000 = 4980
    expect(price(tiered, { promptTokens: 1000, cachedTokens: 200, completionTokens: 500 })).toEqual({ quota: 4980, estimated: false });
    expect(price(tiered, { promptTokens: 1000, cachedTokens: 200, completionTokens: 500 }, 2).quota).toBe(9960);
  });

  it('picks the tier by len, the whole input (Anthropic-style: input + cache)', () => {
    // 300000 × 6 + 1000 × 22.5 = 1822500 → 911250
    expect(price(tiered, { promptTokens: 300_000, completionTokens: 1000 }).quota).toBe(911_250);
    // Claude-style: p = 150000 stays, len = 150000 + 60000 = 210000 → long: 900000 + 36000 = 936000 → 468000
    expect(price(tiered, { promptTokens: 150_000, cachedTokens: 60_000, claudeStyle: true }).quota).toBe(468_000);
  });

  it('leaves a sub-category the expression does not name inside p', () => {
    // img not named: p stays 1000: 1000 × 2 = 2000 → 1000
    expect(price({ billingMode: 'tiered_expr', billingExpr: 'tier("base", p * 2 + c * 8)' }, { promptTokens: 1000, imageTokens: 400 }).quota).toBe(1000);
    // img named: p = 600: 600 × 2 + 400 × 2.5 = 2200 → 1100
    expect(price({ billingMode: 'tiered_expr', billingExpr: 'tier("base", p * 2 + c * 8 + img * 2.5)' }, { promptTokens: 1000, imageTokens: 400 }).quota).toBe(1100);
  });

  it('falls back to the ratios, estimated, when the expression is outside the subset', () => {
    const e = { billingMode: 'tiered_expr', billingExpr: 'param("service_tier") == "flex" ? tier("flex", p * 1) : tier("std", p * 2)', modelRatio: 1.5, completionRatio: 5 };
    // Ratios: (1000 + 100 × 5) × 1.5 = 2250
    expect(price(e, { promptTokens: 1000, completionTokens: 100 })).toEqual({ quota: 2250, estimated: true });
  });
});

describe('evaluateBillingExpr', () => {
  it('reads the subset: arithmetic, precedence, comparisons, ternaries, functions, v1:', () => {
    expect(evaluateBillingExpr('1 + 2 * 3', {})).toBe(7);
    expect(evaluateBillingExpr('(1 + 2) * 3', {})).toBe(9);
    expect(evaluateBillingExpr('10 - 4 - 3', {})).toBe(3);
    expect(evaluateBillingExpr('-p + 1_000', { p: 1 })).toBe(999);
    expect(evaluateBillingExpr('v1:tier("x", max(p, 10) + min(c, 2) + abs(-1) + ceil(0.2) + floor(1.8))', { p: 3, c: 5 })).toBe(15);
    expect(evaluateBillingExpr('tier("request", fixed(0.01))', {})).toBe(10_000);
    expect(evaluateBillingExpr('p > 5 && not (c >= 2) or false ? 1 : 2', { p: 6, c: 1 })).toBe(1);
    expect(evaluateBillingExpr('len <= 10 ? 1 : len <= 20 ? 2 : 3', { len: 15 })).toBe(2);
    expect(evaluateBillingExpr('1e3 + .5', {})).toBe(1000.5);
    expect([...(billingExprVariables('p * 2 + cr * 0.1 + (len > 5 ? img : 0)') ?? [])].sort()).toEqual(['cr', 'img', 'len', 'p']);
  });

  it('returns undefined outside the subset', () => {
    for (const expr of ['p % 2', 'p ** 2', 'header("x")', 'hour("UTC") > 3 ? 1 : 2', 'foo', 'p +', '(p', 'tier(1, 2)', 'tier("a", "b")', '"s"', 'p > 1', '1 / 0', 'fixed(-1)', 'max(1)', 'tier("a", p)|||when(header("x") has "y") * 6', '']) {
      expect(evaluateBillingExpr(expr, { p: 1 }), expr).toBeUndefined();
    }
  });

  it('never reaches a prototype or constructor', () => {
    for (const expr of ['constructor', '__proto__', 'toString()', 'p.constructor', 'p["constructor"]', 'constructor.constructor("return 1")()', 'valueOf', 'hasOwnProperty("p")']) {
      expect(evaluateBillingExpr(expr, { p: 1 }), expr).toBeUndefined();
    }
    // Only own properties are read: an inherited p is not.
    const inherited = Object.create({ p: 5 }) as Record<string, number>;
    expect(evaluateBillingExpr('p + 1', inherited)).toBe(1);
    expect(evaluateBillingExpr('p + 1', { p: Number.NaN })).toBeUndefined();
  });

  it('bounds length and depth without throwing', () => {
    expect(evaluateBillingExpr('('.repeat(10_000) + '1' + ')'.repeat(10_000), {})).toBeUndefined();
    expect(evaluateBillingExpr('-'.repeat(5_000) + '1', {})).toBeUndefined();
    expect(evaluateBillingExpr('1' + ' + 1'.repeat(5_000), {})).toBeUndefined();
    expect(evaluateBillingExpr('(((1)))', {})).toBe(1);
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const value = evaluateBillingExpr(text, { p: 1, c: 2 });
        return value === undefined || Number.isFinite(value);
      }),
    );
  });
});

describe('billableUsage', () => {
  it('reads OpenAI chat usage with its details', () => {
    const body = { usage: { prompt_tokens: 100, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 30, image_tokens: 5, audio_tokens: 7 }, completion_tokens_details: { audio_tokens: 3 } } };
    expect(billableUsage(body)).toEqual(usage({ promptTokens: 100, completionTokens: 20, cachedTokens: 30, imageTokens: 5, audioInputTokens: 7, audioOutputTokens: 3 }));
  });

  it('reads responses, Anthropic-style and DeepSeek names; embeddings have no completion', () => {
    expect(billableUsage({ usage: { input_tokens: 50, output_tokens: 9, input_tokens_details: { cached_tokens: 10 } } })).toEqual(usage({ promptTokens: 50, completionTokens: 9, cachedTokens: 10 }));
    expect(billableUsage({ type: 'message', usage: { input_tokens: 12, output_tokens: 4, cache_read_input_tokens: 100, cache_creation_input_tokens: 40 } })).toEqual(usage({ promptTokens: 12, completionTokens: 4, cachedTokens: 100, cacheCreationTokens: 40, claudeStyle: true }));
    expect(billableUsage({ usage: { prompt_tokens: 80, completion_tokens: 2, prompt_cache_hit_tokens: 64, prompt_cache_miss_tokens: 16 } })).toEqual(usage({ promptTokens: 80, completionTokens: 2, cachedTokens: 64 }));
    expect(billableUsage({ object: 'list', usage: { prompt_tokens: 8, total_tokens: 8 } })).toEqual(usage({ promptTokens: 8 }));
    expect(billableUsage({ choices: [] })).toBeUndefined();
    expect(billableUsage(null)).toBeUndefined();
  });

  it('bounds every figure: garbage reads as 0 and marks the usage incomplete', () => {
    const u = billableUsage({ usage: { prompt_tokens: 1e12, completion_tokens: -3, prompt_tokens_details: { cached_tokens: 1.5 } } });
    expect(u).toEqual(usage({ incomplete: true }));
    expect(price({ modelRatio: 1 }, u).estimated).toBe(true);
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.anything(), fc.anything(), (a, b, c, d) => {
        const got = billableUsage({ usage: { prompt_tokens: a, completion_tokens: b, prompt_tokens_details: { cached_tokens: c }, cache_creation_input_tokens: d } });
        if (!got) return false;
        const counts = [got.promptTokens, got.completionTokens, got.cachedTokens, got.cacheCreationTokens, got.imageTokens, got.audioInputTokens, got.audioOutputTokens];
        return counts.every((n) => Number.isInteger(n) && n >= 0 && n <= 1e10);
      }),
    );
  });

  it('prices any usage, however large, as a safe whole number', () => {
    const count = fc.oneof(fc.integer({ min: 0, max: 1e10 }), fc.double(), fc.constant(Number.MAX_VALUE));
    const ratio = fc.double({ min: 0, max: 1e9, noNaN: true });
    fc.assert(
      fc.property(count, count, count, count, ratio, ratio, fc.boolean(), (p, c, cr, cc, modelRatio, completionRatio, claudeStyle) => {
        const { quota } = priceQuota({ entry: entry({ modelRatio, completionRatio }), groupRatio: 1e3, quotaPerUnit: QPU, usage: usage({ promptTokens: p, completionTokens: c, cachedTokens: cr, cacheCreationTokens: cc, claudeStyle }) });
        return Number.isSafeInteger(quota) && quota >= 0;
      }),
    );
    expect(price({ modelRatio: 1e9, completionRatio: 1e9 }, { promptTokens: 1e10, completionTokens: 1e10 }, 1e3)).toEqual({ quota: Number.MAX_SAFE_INTEGER, estimated: true });
  });
});
