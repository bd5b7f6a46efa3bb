import * as z from 'zod/mini';

// Building blocks shared by the resource schemas. Messages are written for people.

/** A string; `rule` is the message when it is not one. */
export const text = (rule = 'must be a string') => z.string({ error: rule });

/** A non-empty string. */
export const nonEmpty = (rule: string) => z.string({ error: rule }).check(z.minLength(1, { error: rule }));

/** An integer, with `rule` as the message. */
export const integer = (rule: string) => z.number({ error: rule }).check(z.refine(Number.isInteger, { error: rule }));

/** An optional, nullable number (an integer with `int`) within [min, max]. */
const bounded = (min: number, max: number, rule: string, int?: boolean) =>
  z.optional(z.nullable((int ? integer(rule) : z.number({ error: rule })).check(z.gte(min, { error: rule }), z.lte(max, { error: rule }))));

/** An optional, nullable number within [min, max]. */
export const range = (min: number, max: number) => bounded(min, max, `must be a number between ${min} and ${max}`);

/** An optional, nullable integer within [min, max]. */
export const intBetween = (min: number, max: number) => bounded(min, max, `must be an integer between ${min} and ${max}`, true);

/** An optional, nullable integer >= `min`. */
export const intAtLeast = (min: number) => bounded(min, Infinity, `must be an integer >= ${min}`, true);

/** The `model` field every endpoint has. */
export const model = (example: string) => nonEmpty(`is required: a model id such as ${example}`);

/** `stream`, on the endpoints that stream. */
export const stream = () => z.optional(z.nullable(z.boolean({ error: 'must be a boolean' })));

const streamOptionsRule = 'must be an object such as { include_usage: true }';

/** `stream_options`, on the endpoints that stream: a string or a boolean would reach the server, which refuses it or ignores it. */
export const streamOptions = () =>
  z.optional(z.nullable(z.looseObject({ include_usage: z.optional(z.nullable(z.boolean({ error: 'must be a boolean' }))) }, { error: streamOptionsRule })));

/** One of a few string values (optional, nullable). */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.optional(z.nullable(z.literal(values, { error: `must be ${values.map((v) => `'${v}'`).join(', ').replace(/, ([^,]*)$/, ' or $1')}` })));
