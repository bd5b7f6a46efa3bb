// A small, safe evaluator for new-api's `billing_mode: "tiered_expr"` expressions (`billing_expr`).
//
// new-api compiles them with expr-lang/expr (QuantumNous/new-api
// 6b9b2ab0c6a2846a965476a6f860d69c23a323e8, pkg/billingexpr/compile.go `compileEnvPrototypeV1`,
// pkg/billingexpr/run.go `runProgram`; the language is described in pkg/billingexpr/expr.md at
// 4b1ad717dd2227f4581828a73e4cde471ff3bb31). The variables are token counts (p c len cr cc cc1h
// img img_o ai ao); the result is USD per million tokens' worth of cost, i.e. a coefficient of
// 2.5 on `p` means $2.50 per 1M prompt tokens, and `fixed(x)` is x USD per request (x × 1e6).
//
// Only the subset a price table needs is read here: numbers, the token variables, + - * /,
// comparisons, && || ! (and `and` `or` `not`), the ternary `c ? a : b`, parentheses, and the
// functions tier fixed max min abs ceil floor. Anything else (request probes such as
// param/header/hour, `%`, `**`, member access, other names, a string where a number is due)
// makes the answer undefined: the caller then falls back to the ratios and says the price is
// estimated. No eval, no Function, no property lookup on the caller's objects beyond the fixed
// names below; the text, the token list and the nesting are all bounded.

/** The longest expression read (the pricing schema keeps `billing_expr` to this length too). */
export const MAX_EXPR_LENGTH = 16_384;
/** The deepest nesting read (parentheses, operators, calls). */
const MAX_DEPTH = 64;
/** The most tokens read from one expression. */
const MAX_TOKENS = 4_096;

/** The token variables of new-api's v1 environment (compile.go `compileEnvPrototypeV1`). */
export const BILLING_VARIABLES: readonly string[] = ['p', 'c', 'len', 'cr', 'cc', 'cc1h', 'img', 'img_o', 'ai', 'ao'];
const VARIABLES = new Set(BILLING_VARIABLES);

type Value = number | boolean | string;

type Node =
  | { kind: 'num'; value: number }
  | { kind: 'str'; value: string }
  | { kind: 'bool'; value: boolean }
  | { kind: 'var'; name: string }
  | { kind: 'unary'; op: '-' | '+' | '!'; arg: Node }
  | { kind: 'binary'; op: string; left: Node; right: Node }
  | { kind: 'cond'; test: Node; then: Node; else: Node }
  | { kind: 'call'; name: string; args: Node[] };

type Token = { type: 'num'; value: number } | { type: 'str'; value: string } | { type: 'id'; value: string } | { type: 'op'; value: string };

const FUNCTIONS = new Set(['tier', 'fixed', 'max', 'min', 'abs', 'ceil', 'floor']);
const OPERATORS = ['&&', '||', '==', '!=', '<=', '>=', '<', '>', '+', '-', '*', '/', '(', ')', ',', '?', ':', '!'];

/** The tokens of an expression, or undefined when a character is outside the subset. */
function tokenize(text: string): Token[] | undefined {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    if (tokens.length > MAX_TOKENS) return undefined;
    const ch = text[i] as string;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      i++;
      continue;
    }
    const number = /^(?:\d[\d_]*(?:\.\d[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 64));
    if (number) {
      const value = Number(number[0].replaceAll('_', ''));
      if (!Number.isFinite(value)) return undefined;
      tokens.push({ type: 'num', value });
      i += number[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i, i + 64));
    if (id) {
      tokens.push({ type: 'id', value: id[0] });
      i += id[0].length;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const end = text.indexOf(ch, i + 1);
      if (end < 0) return undefined;
      const value = text.slice(i + 1, end);
      // Escapes are not read: a tier name needs none.
      if (value.includes('\\') || value.length > 256) return undefined;
      tokens.push({ type: 'str', value });
      i = end + 1;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (!op) return undefined;
    // `|||` joins request rules (expr.md "Request Rules"): not in the subset.
    if (op === '||' && text[i + 2] === '|') return undefined;
    tokens.push({ type: 'op', value: op });
    i += op.length;
  }
  return tokens;
}

/** A recursive-descent parser over the subset; every method returns undefined when the text leaves it. */
class Parser {
  private position = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Node | undefined {
    const node = this.ternary();
    return node && this.position === this.tokens.length ? node : undefined;
  }

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }

  private isOp(value: string): boolean {
    const t = this.peek();
    return t !== undefined && t.type === 'op' && t.value === value;
  }

  private isWord(value: string): boolean {
    const t = this.peek();
    return t !== undefined && t.type === 'id' && t.value === value;
  }

  /** Runs one level deeper, refusing past MAX_DEPTH. */
  private nested(read: () => Node | undefined): Node | undefined {
    if (++this.depth > MAX_DEPTH) return undefined;
    const node = read();
    this.depth--;
    return node;
  }

  private ternary(): Node | undefined {
    return this.nested(() => {
      const test = this.or();
      if (!test || !this.isOp('?')) return test;
      this.position++;
      const then = this.ternary();
      if (!then || !this.isOp(':')) return undefined;
      this.position++;
      const otherwise = this.ternary();
      return otherwise && { kind: 'cond', test, then, else: otherwise };
    });
  }

  /** One left-associative level: `next (op next)*`, with the words that spell an operator. */
  private level(next: () => Node | undefined, ops: readonly string[], words: Readonly<Record<string, string>> = {}): Node | undefined {
    let left = next();
    while (left) {
      const t = this.peek();
      const op = t?.type === 'op' && ops.includes(t.value) ? t.value : t?.type === 'id' ? words[t.value] : undefined;
      if (!op) break;
      this.position++;
      const right = this.nested(next);
      if (!right) return undefined;
      left = { kind: 'binary', op, left, right };
    }
    return left;
  }

  private or(): Node | undefined {
    return this.level(() => this.and(), ['||'], { or: '||' });
  }

  private and(): Node | undefined {
    return this.level(() => this.compare(), ['&&'], { and: '&&' });
  }

  private compare(): Node | undefined {
    return this.level(() => this.additive(), ['==', '!=', '<', '<=', '>', '>=']);
  }

  private additive(): Node | undefined {
    return this.level(() => this.multiplicative(), ['+', '-']);
  }

  private multiplicative(): Node | undefined {
    return this.level(() => this.unary(), ['*', '/']);
  }

  private unary(): Node | undefined {
    return this.nested(() => {
      const t = this.peek();
      if (t?.type === 'op' && (t.value === '-' || t.value === '+' || t.value === '!')) {
        this.position++;
        const arg = this.unary();
        return arg && { kind: 'unary', op: t.value, arg };
      }
      if (this.isWord('not')) {
        this.position++;
        const arg = this.unary();
        return arg && { kind: 'unary', op: '!', arg };
      }
      return this.primary();
    });
  }

  private primary(): Node | undefined {
    const t = this.peek();
    if (!t) return undefined;
    this.position++;
    if (t.type === 'num') return { kind: 'num', value: t.value };
    if (t.type === 'str') return { kind: 'str', value: t.value };
    if (t.type === 'op') {
      if (t.value !== '(') return undefined;
      const inner = this.ternary();
      if (!inner || !this.isOp(')')) return undefined;
      this.position++;
      return inner;
    }
    if (t.value === 'true' || t.value === 'false') return { kind: 'bool', value: t.value === 'true' };
    if (this.isOp('(')) {
      if (!FUNCTIONS.has(t.value)) return undefined;
      this.position++;
      const args: Node[] = [];
      if (!this.isOp(')')) {
        for (;;) {
          const arg = this.ternary();
          if (!arg || args.length >= 8) return undefined;
          args.push(arg);
          if (this.isOp(')')) break;
          if (!this.isOp(',')) return undefined;
          this.position++;
        }
      }
      this.position++;
      return { kind: 'call', name: t.value, args };
    }
    return VARIABLES.has(t.value) ? { kind: 'var', name: t.value } : undefined;
  }
}

/** The tree of an expression (after new-api's optional `v1:` prefix), or undefined outside the subset. */
function parse(expr: string): Node | undefined {
  if (typeof expr !== 'string' || expr.length === 0 || expr.length > MAX_EXPR_LENGTH) return undefined;
  // compile.go `ParseExprVersion`: "v1:" is the only version; no prefix means v1.
  const body = expr.startsWith('v1:') ? expr.slice(3) : expr;
  const tokens = tokenize(body);
  return tokens && tokens.length > 0 ? new Parser(tokens).parse() : undefined;
}

/**
 * The token variables an expression names, or undefined when it is outside the subset. new-api
 * takes a sub-category (cr, cc, cc1h, img, ai, img_o, ao) out of `p`/`c` only when the expression
 * names it (service/tiered_settle.go `BuildTieredTokenParams`).
 */
export function billingExprVariables(expr: string): Set<string> | undefined {
  const tree = parse(expr);
  if (!tree) return undefined;
  const names = new Set<string>();
  const visit = (node: Node): void => {
    switch (node.kind) {
      case 'var':
        names.add(node.name);
        break;
      case 'unary':
        visit(node.arg);
        break;
      case 'binary':
        visit(node.left);
        visit(node.right);
        break;
      case 'cond':
        visit(node.test);
        visit(node.then);
        visit(node.else);
        break;
      case 'call':
        node.args.forEach(visit);
        break;
      default:
        break;
    }
  };
  visit(tree);
  return names;
}

/** Numbers, or undefined when any argument is not a finite number. */
function numbers(values: Value[]): number[] | undefined {
  return values.every((v) => typeof v === 'number' && Number.isFinite(v)) ? (values as number[]) : undefined;
}

function call(name: string, args: Value[]): Value | undefined {
  if (name === 'tier') {
    // run.go: tier(name string, value float64) records the tier and returns the value.
    const [label, value] = args;
    return args.length === 2 && typeof label === 'string' && typeof value === 'number' ? value : undefined;
  }
  const n = numbers(args);
  if (!n) return undefined;
  const [a, b] = n;
  switch (name) {
    case 'fixed':
      // expr.md "Fixed Request Prices": fixed(amount) is amount × 1,000,000 internally.
      return n.length === 1 && a !== undefined && a >= 0 ? a * 1_000_000 : undefined;
    case 'max':
      return n.length === 2 && a !== undefined && b !== undefined ? Math.max(a, b) : undefined;
    case 'min':
      return n.length === 2 && a !== undefined && b !== undefined ? Math.min(a, b) : undefined;
    case 'abs':
      return n.length === 1 && a !== undefined ? Math.abs(a) : undefined;
    case 'ceil':
      return n.length === 1 && a !== undefined ? Math.ceil(a) : undefined;
    case 'floor':
      return n.length === 1 && a !== undefined ? Math.floor(a) : undefined;
    default:
      return undefined;
  }
}

function binary(op: string, l: Value, r: Value): Value | undefined {
  if (op === '==' || op === '!=') {
    if (typeof l !== typeof r) return undefined;
    return op === '==' ? l === r : l !== r;
  }
  if (typeof l !== 'number' || typeof r !== 'number') return undefined;
  switch (op) {
    case '+':
      return l + r;
    case '-':
      return l - r;
    case '*':
      return l * r;
    case '/':
      return r === 0 ? undefined : l / r;
    case '<':
      return l < r;
    case '<=':
      return l <= r;
    case '>':
      return l > r;
    case '>=':
      return l >= r;
    default:
      return undefined;
  }
}

function evaluate(node: Node, vars: Record<string, number>): Value | undefined {
  switch (node.kind) {
    case 'num':
    case 'str':
    case 'bool':
      return node.value;
    case 'var': {
      // Only the fixed names reach here (the parser refuses any other), read as own properties.
      const value = Object.hasOwn(vars, node.name) ? vars[node.name] : 0;
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    }
    case 'unary': {
      const arg = evaluate(node.arg, vars);
      if (node.op === '!') return typeof arg === 'boolean' ? !arg : undefined;
      if (typeof arg !== 'number') return undefined;
      return node.op === '-' ? -arg : arg;
    }
    case 'binary': {
      const left = evaluate(node.left, vars);
      if (left === undefined) return undefined;
      if (node.op === '&&' || node.op === '||') {
        if (typeof left !== 'boolean') return undefined;
        if (node.op === '&&' ? !left : left) return left;
        const right = evaluate(node.right, vars);
        return typeof right === 'boolean' ? right : undefined;
      }
      const right = evaluate(node.right, vars);
      return right === undefined ? undefined : binary(node.op, left, right);
    }
    case 'cond': {
      const test = evaluate(node.test, vars);
      if (typeof test !== 'boolean') return undefined;
      return evaluate(test ? node.then : node.else, vars);
    }
    case 'call': {
      const args: Value[] = [];
      for (const arg of node.args) {
        const value = evaluate(arg, vars);
        if (value === undefined) return undefined;
        args.push(value);
      }
      return call(node.name, args);
    }
  }
}

/**
 * The value of a billing expression (in new-api's v1 unit: USD × 1e6 per request, i.e. the sum
 * of $/1M-token prices × tokens) for the given token variables, or undefined when the expression
 * is outside the supported subset, a variable is not a finite number, or the result is not a
 * finite number. A variable the expression names but `vars` lacks counts as 0, as new-api's
 * TokenParams fields default to 0 (pkg/billingexpr/types.go).
 */
export function evaluateBillingExpr(expr: string, vars: Record<string, number>): number | undefined {
  const tree = parse(expr);
  if (!tree) return undefined;
  const value = evaluate(tree, vars);
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
