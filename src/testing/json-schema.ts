import { isObject } from './context.js';
import { stringFor } from './sample-string.js';

type Json = Record<string, unknown>;

/** Where a value is being built: the words it may borrow, and its place in the schema. */
interface Walk {
  root: unknown;
  text: string;
  /** Property name (or the array's name for its items), for name-based guesses. */
  name: string;
  depth: number;
  /** Index of an array item, so items differ (`uniqueItems`) and enums rotate. */
  variant: number;
}

/** Past this nesting, optional recursion stops: arrays come out empty and `null` branches win. */
const MAX_DEPTH = 6;

/**
 * Builds a deterministic value that validates against a JSON Schema, borrowing words from
 * `text` (the user's message). Covers what tool parameters and strict structured outputs use:
 * `$ref` into the same document, `const`, `enum`, `anyOf`/`oneOf` (the first non-null branch),
 * `allOf`, type lists with `null`, string formats and lengths, numeric bounds and `multipleOf`,
 * `minItems`/`maxItems`, tuples, and objects with every declared property. `pattern` is not honoured.
 */
export function sampleFromSchema(schema: unknown, text: string): unknown {
  return sample(schema, { root: schema, text, name: '', depth: 0, variant: 0 });
}

function sample(input: unknown, w: Walk): unknown {
  // Only a schema with no finite instance (a required, non-null cycle) gets this deep.
  if (w.depth > 4 * MAX_DEPTH) return null;
  const s = resolve(input, w.root);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[w.variant % s.enum.length];
  const branches = s.anyOf ?? s.oneOf;
  if (Array.isArray(branches) && branches.length > 0) {
    const isNull = (b: unknown) => resolve(b, w.root).type === 'null';
    return sample((w.depth >= MAX_DEPTH ? branches.find(isNull) : undefined) ?? branches.find((b) => !isNull(b)) ?? branches[0], w);
  }
  const types: unknown[] = Array.isArray(s.type) ? s.type : [s.type];
  if (w.depth >= MAX_DEPTH && types.includes('null')) return null;
  const type = types.find((t) => typeof t === 'string' && t !== 'null') ?? (types.includes('null') ? 'null' : inferType(s));
  if (type === 'object') return objectFor(s, w);
  if (type === 'array') return arrayFor(s, w);
  if (type === 'number' || type === 'integer') return numberFor(s, type === 'integer', w.variant);
  if (type === 'boolean') return true;
  if (type === 'null') return null;
  return stringFor(s, w.name, w.text, w.variant);
}

/** The schema behind `$ref` chains and `allOf`, as one object; `true`/`{}` become `{}`. */
function resolve(input: unknown, root: unknown, seen = 0): Json {
  if (!isObject(input)) return {};
  let s = input;
  if (typeof s.$ref === 'string' && s.$ref.startsWith('#') && seen < 32) {
    const keys = s.$ref.slice(1).split('/').filter(Boolean).map((k) => decodeURIComponent(k).replace(/~1/g, '/').replace(/~0/g, '~'));
    const { $ref: _ref, ...rest } = s;
    s = { ...resolve(keys.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), root), root, seen + 1), ...rest };
  }
  if (!Array.isArray(s.allOf)) return s;
  const { allOf, ...rest } = s;
  const parts = [rest, ...allOf.map((part) => resolve(part, root, seen + 1))];
  const merged: Json = Object.assign({}, ...[...parts].reverse());
  const properties = parts.filter((p) => isObject(p.properties)).map((p) => p.properties as Json);
  if (properties.length > 0) merged.properties = Object.assign({}, ...properties.reverse());
  const required = parts.flatMap((p) => (Array.isArray(p.required) ? p.required : []));
  if (required.length > 0) merged.required = required;
  return merged;
}

function inferType(s: Json): string {
  if (isObject(s.properties) || Array.isArray(s.required)) return 'object';
  if (s.items !== undefined || s.prefixItems !== undefined) return 'array';
  if (typeof s.minimum === 'number' || typeof s.maximum === 'number') return 'number';
  return 'string';
}

/** Every declared property (strict mode requires them all), plus required names left undeclared. */
function objectFor(s: Json, w: Walk): Json {
  const props = isObject(s.properties) ? s.properties : {};
  const required = Array.isArray(s.required) ? s.required.filter((k): k is string => typeof k === 'string') : [];
  const out: Json = {};
  for (const key of new Set([...Object.keys(props), ...required])) {
    const sub = props[key] ?? (isObject(s.additionalProperties) ? s.additionalProperties : {});
    // defineProperty keeps a property named `__proto__` an own property.
    Object.defineProperty(out, key, { value: sample(sub, { ...w, name: key, depth: w.depth + 1 }), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function arrayFor(s: Json, w: Walk): unknown[] {
  const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
  const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
  const min = typeof s.minItems === 'number' ? s.minItems : 0;
  const max = typeof s.maxItems === 'number' ? s.maxItems : Infinity;
  const count = Math.min(Math.max(min, tuple.length, w.depth < MAX_DEPTH ? 1 : 0), max);
  return Array.from({ length: count }, (_, i) => sample(i < tuple.length ? tuple[i] : rest, { ...w, depth: w.depth + 1, variant: i }));
}

/** 1 (plus the item index) moved inside the bounds, then onto a `multipleOf`. */
function numberFor(s: Json, integer: boolean, variant: number): number {
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const [min, max, xmin, xmax] = [num(s.minimum) ?? -Infinity, num(s.maximum) ?? Infinity, num(s.exclusiveMinimum), num(s.exclusiveMaximum)];
  const lower = integer ? Math.max(Math.ceil(min), xmin === undefined ? -Infinity : Math.floor(xmin) + 1) : Math.max(min, xmin ?? -Infinity);
  const upper = integer ? Math.min(Math.floor(max), xmax === undefined ? Infinity : Math.ceil(xmax) - 1) : Math.min(max, xmax ?? Infinity);
  let v = Math.min(Math.max(1 + variant, lower), upper);
  if (v === xmin || v === xmax) v = Number.isFinite(lower) && Number.isFinite(upper) ? (lower + upper) / 2 : Number.isFinite(lower) ? lower + 1 : upper - 1;
  const step = num(s.multipleOf);
  if (step && step > 0) v = Math.ceil(v / step) * step > upper ? Math.floor(upper / step) * step : Math.ceil(v / step) * step;
  return v;
}
