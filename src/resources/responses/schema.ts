import * as z from 'zod/mini';
import { validate } from '../../core/validation.js';
import { intAtLeast, model, nonEmpty, range } from '../shared/schema.js';

const inputRule = 'must be a non-empty string or a non-empty array of input items';
const item = z.looseObject({}, { error: 'must be an input item object' });

/** Parameters of POST /responses; vendor extras pass through. */
const responseParams = z.looseObject(
  {
    model: model('gpt-4o-mini'),
    input: z.union([nonEmpty(inputRule), z.array(item).check(z.minLength(1, { error: inputRule }))], { error: inputRule }),
    max_output_tokens: intAtLeast(1),
    temperature: range(0, 2),
    top_p: range(0, 1),
    stream: z.optional(z.nullable(z.boolean({ error: 'must be a boolean' }))),
  },
  { error: 'must be an object' },
);

/** Throws a ValidationError for the first rule `params` breaks. */
export function check(params: unknown): void {
  validate(responseParams, params);
}
