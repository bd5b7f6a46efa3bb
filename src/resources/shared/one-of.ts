import * as z from 'zod/mini';

/**
 * One of a few string values (optional, nullable). Apart from schema.ts: the chat schema
 * does not use it, and each helper in schema.ts is loaded with every chat call.
 */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.optional(z.nullable(z.literal(values, { error: `must be ${values.map((v) => `'${v}'`).join(', ').replace(/, ([^,]*)$/, ' or $1')}` })));
