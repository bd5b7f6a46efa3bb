import * as z from 'zod/mini';

// Building blocks shared by the resource schemas. Messages are written for people.

/** A string; `rule` is the message when it is not one. */
export const text = (rule = 'must be a string') => z.string({ error: rule });

/** A non-empty string. */
export const nonEmpty = (rule: string) => z.string({ error: rule }).check(z.minLength(1, { error: rule }));

/** An optional, nullable number within [min, max]. */
export const range = (min: number, max: number) => {
  const rule = `must be a number between ${min} and ${max}`;
  return z.optional(z.nullable(z.number({ error: rule }).check(z.gte(min, { error: rule }), z.lte(max, { error: rule }))));
};

/** An integer, with `rule` as the message. */
export const integer = (rule: string) => z.number({ error: rule }).check(z.refine(Number.isInteger, { error: rule }));

/** An optional, nullable integer >= `min`. */
export const intAtLeast = (min: number) => {
  const rule = `must be an integer >= ${min}`;
  return z.optional(z.nullable(integer(rule).check(z.gte(min, { error: rule }))));
};

/** The `model` field every endpoint has. */
export const model = (example: string) => nonEmpty(`is required: a model id such as ${example}`);

/** One of a few string values. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.optional(z.nullable(z.literal(values, { error: `must be ${values.map((v) => `'${v}'`).join(', ').replace(/, ([^,]*)$/, ' or $1')}` })));
