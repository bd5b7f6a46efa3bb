// How the mock bills a call, ported from QuantumNous/new-api (read at the commits named here,
// not copied): the same inputs give the same quota as the gateway's settlement.
//
// - Ratio-priced text (quota_type 0): service/text_quota.go calculateTextQuotaSummary
//   (00899e664780c5bfa544e261a2ce6092af96d14b). In shopspring decimals:
//     base   = prompt − cached − cache_creation          (OpenAI usage semantics; clamped at 0)
//     prompt = base + cached × cache_ratio + cache_creation × create_cache_ratio
//     quota  = (prompt + completion × completion_ratio) × model_ratio × group_ratio
//   then: ≤ 0 with a non-zero ratio → 1; rounded half away from zero (decimal Round(0)); no
//   tokens at all → 0; a non-zero ratio that rounds to 0 → 1.
// - Per-request models (quota_type 1): the same file's UsePrice branch,
//   model_price × QuotaPerUnit × group_ratio, times the "other ratios"; the image relay adds
//   `n` as one of them (relay/helper/price.go ModelPriceHelper, 8af3666d12844f53da94de581ad3d7b46e26859d,
//   for the per-call price and its ImagePriceRatio), rounded as above.
// - Tiered models (`billing_mode: "tiered_expr"`): pkg/billingexpr/settle.go
//   ComputeTieredQuotaWithRequest and service/tiered_settle.go BuildTieredTokenParams
//   (a30f2f357798368210ff3fab6c86a5f795eaf414): the expression's $/1M-token cost
//   / 1,000,000 × QuotaPerUnit × group_ratio, rounded half away from zero (math.Round);
//   `p` loses the cached tokens only when the expression uses `cr`, `len` is the whole prompt.
//   The grammar is expr-lang's, as documented in pkg/billingexpr/expr.md
//   (695784ab6121fbadd8cf8a8be60cf2de370ffcf0); the mock evaluates the subset its table uses.
// - Videos: the seed spec's per-duration prices × QuotaPerUnit × group_ratio.
// QuotaPerUnit is common/constants.go's 500 * 1000 (cfc5ffac7259f6d478a15058fe318ef9d8aba1a9).

/** new-api's quota per USD (`common.QuotaPerUnit`). */
export const QUOTA_PER_UNIT = 500_000;
/** The ratio of the mock's only group, `default`. */
export const GROUP_RATIO = 1;

/** USD per video by duration in seconds (the seed spec's table). */
export const VIDEO_PRICES: Readonly<Record<number, number>> = { 5: 0.08, 10: 0.15, 15: 0.3, 20: 0.5 };

/** Token counts of a call, as its usage reports them (OpenAI semantics: prompt includes the cached tokens). */
export interface BillTokens {
  prompt: number;
  completion: number;
  /** `prompt_tokens_details.cached_tokens`. */
  cached?: number | undefined;
  /** Cache-write tokens (`prompt_tokens_details.cached_creation_tokens` in new-api's usage). */
  cacheCreation?: number | undefined;
}

/** The ratios of a token-priced model, as /api/pricing lists them. */
export interface BillRatios {
  model: number;
  completion: number;
  cache?: number | undefined;
  createCache?: number | undefined;
}

/**
 * Rounds half away from zero, as shopspring's `Round(0)` and Go's `math.Round`. The value is
 * first cut to 9 decimals so a binary float just under .5 (0.1 × 3 and the like), which the
 * Go side computes exactly in decimals, rounds as the decimal would.
 */
export function roundQuota(x: number): number {
  const cut = Number(x.toFixed(9));
  return Math.sign(cut) * Math.round(Math.abs(cut));
}

/** The quota of a ratio-priced call (quota_type 0). */
export function ratioQuota(tokens: BillTokens, r: BillRatios, groupRatio = GROUP_RATIO): number {
  const cached = tokens.cached ?? 0;
  const creation = tokens.cacheCreation ?? 0;
  const ratio = r.model * groupRatio;
  if (tokens.prompt + tokens.completion <= 0) return 0;
  // A ratio from the table cannot be missing here; new-api reads an unset cache ratio as 1 (ratio_setting.GetCacheRatio).
  const base = Math.max(0, tokens.prompt - cached - creation);
  const prompt = base + cached * (r.cache ?? 1) + creation * (r.createCache ?? 1);
  let quota = (prompt + tokens.completion * r.completion) * ratio;
  if (ratio !== 0 && quota <= 0) quota = 1;
  const rounded = roundQuota(quota);
  return ratio !== 0 && rounded === 0 ? 1 : rounded;
}

/** The quota of a per-request call (quota_type 1): `n` images count as n requests. */
export function priceQuota(modelPrice: number, n = 1, groupRatio = GROUP_RATIO): number {
  return roundQuota(modelPrice * QUOTA_PER_UNIT * groupRatio * n);
}

/** The quota of a video of `seconds` (5, 10, 15 or 20). */
export function videoQuota(seconds: number, groupRatio = GROUP_RATIO): number {
  const price = VIDEO_PRICES[seconds];
  if (price === undefined) throw new RangeError(`no video price for ${seconds} s`);
  return priceQuota(price, 1, groupRatio);
}

/** The quota of a tiered call, and the tier the expression matched. */
export function tieredQuota(expr: string, tokens: BillTokens, groupRatio = GROUP_RATIO): { quota: number; tier: string } {
  const program = parseBillingExpr(expr);
  const cached = tokens.cached ?? 0;
  const creation = tokens.cacheCreation ?? 0;
  let p = tokens.prompt;
  if (program.vars.has('cr')) p -= cached;
  if (program.vars.has('cc')) p -= creation;
  const vars: Record<string, number> = { p: Math.max(0, p), c: Math.max(0, tokens.completion), len: tokens.prompt, cr: cached, cc: creation, cc1h: 0, img: 0, img_o: 0, ai: 0, ao: 0 };
  const trace = { tier: '' };
  const cost = evaluate(program.node, vars, trace);
  return { quota: roundQuota((cost / 1_000_000) * QUOTA_PER_UNIT * groupRatio), tier: trace.tier };
}

// A tiny evaluator of expr-lang's arithmetic subset: numbers, the token variables, + - * /,
// comparisons, `cond ? a : b`, parentheses and `tier("name", value)`. Enough for the tiered
// model of the mock's table; anything else is refused when the table is read.

type Node =
  | { k: 'num'; v: number }
  | { k: 'var'; name: string }
  | { k: 'bin'; op: string; a: Node; b: Node }
  | { k: 'if'; cond: Node; a: Node; b: Node }
  | { k: 'tier'; name: string; value: Node };

const VARIABLES = new Set(['p', 'c', 'len', 'cr', 'cc', 'cc1h', 'img', 'img_o', 'ai', 'ao']);

/** Parses a billing expression (the part before any `|||` request rules; a `v1:` prefix is allowed). */
export function parseBillingExpr(source: string): { node: Node; vars: Set<string> } {
  const text = (source.split('|||')[0] ?? '').replace(/^v1:/, '');
  const tokens = text.match(/\d+(?:\.\d+)?|"[^"]*"|[A-Za-z_]\w*|<=|>=|==|!=|[-+*/()?:,<>]|\S/g) ?? [];
  const vars = new Set<string>();
  let i = 0;
  const peek = () => tokens[i];
  const take = (want?: string) => {
    const t = tokens[i++];
    if (t === undefined || (want !== undefined && t !== want)) throw new SyntaxError(`billing_expr: expected ${want ?? 'more'} at token ${i} of ${JSON.stringify(text)}`);
    return t;
  };
  const ternary = (): Node => {
    const cond = comparison();
    if (peek() !== '?') return cond;
    take('?');
    const a = ternary();
    take(':');
    return { k: 'if', cond, a, b: ternary() };
  };
  const comparison = (): Node => {
    let a = sum();
    while (['<', '<=', '>', '>=', '==', '!='].includes(peek() ?? '')) a = { k: 'bin', op: take(), a, b: sum() };
    return a;
  };
  const sum = (): Node => {
    let a = product();
    while (peek() === '+' || peek() === '-') a = { k: 'bin', op: take(), a, b: product() };
    return a;
  };
  const product = (): Node => {
    let a = atom();
    while (peek() === '*' || peek() === '/') a = { k: 'bin', op: take(), a, b: atom() };
    return a;
  };
  const atom = (): Node => {
    const t = take();
    if (t === '(') {
      const inner = ternary();
      take(')');
      return inner;
    }
    if (t === '-') return { k: 'bin', op: '-', a: { k: 'num', v: 0 }, b: atom() };
    if (/^\d/.test(t)) return { k: 'num', v: Number(t) };
    if (t === 'tier') {
      take('(');
      const name = take();
      if (!name.startsWith('"')) throw new SyntaxError('billing_expr: tier() takes a quoted name first');
      take(',');
      const value = ternary();
      take(')');
      return { k: 'tier', name: name.slice(1, -1), value };
    }
    if (VARIABLES.has(t)) {
      vars.add(t);
      return { k: 'var', name: t };
    }
    throw new SyntaxError(`billing_expr: the mock does not evaluate ${JSON.stringify(t)}`);
  };
  const node = ternary();
  if (i !== tokens.length) throw new SyntaxError(`billing_expr: unexpected ${JSON.stringify(tokens[i])}`);
  return { node, vars };
}

function evaluate(node: Node, vars: Record<string, number>, trace: { tier: string }): number {
  switch (node.k) {
    case 'num':
      return node.v;
    case 'var':
      return vars[node.name] ?? 0;
    case 'tier':
      trace.tier = node.name;
      return evaluate(node.value, vars, trace);
    case 'if':
      return evaluate(node.cond, vars, trace) !== 0 ? evaluate(node.a, vars, trace) : evaluate(node.b, vars, trace);
    case 'bin': {
      const a = evaluate(node.a, vars, trace);
      const b = evaluate(node.b, vars, trace);
      const ops: Record<string, number> = { '+': a + b, '-': a - b, '*': a * b, '/': a / b, '<': +(a < b), '<=': +(a <= b), '>': +(a > b), '>=': +(a >= b), '==': +(a === b), '!=': +(a !== b) };
      return ops[node.op] ?? Number.NaN;
    }
  }
}
