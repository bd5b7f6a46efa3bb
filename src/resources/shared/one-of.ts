import * as z from 'zod/mini';

/**
 * One of a few string values (optional, nullable). Kept out of schema.ts, whose every
 * helper is loaded with the first chat call: the chat schema does not use this one.
 */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.optional(z.nullable(z.literal(values, { error: `must be ${values.map((v) => `'${v}'`).join(', ').replace(/, ([^,]*)$/, ' or $1')}` })));
