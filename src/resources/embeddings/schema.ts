import * as z from 'zod/mini';
import { validate } from '../../core/validation.js';
import { intAtLeast, model, nonEmpty, oneOf } from '../shared/schema.js';

const inputRule = 'must be a non-empty string, an array of them, or token arrays';
const input = z.union(
  [
    nonEmpty(inputRule),
    z.array(z.union([nonEmpty(inputRule), z.number(), z.array(z.number())])).check(z.minLength(1, { error: 'must not be empty' })),
  ],
  { error: inputRule },
);

/** Parameters of POST /embeddings; vendor extras pass through. */
const embeddingParams = z.looseObject(
  { model: model('text-embedding-3-small'), input, encoding_format: oneOf(['float', 'base64']), dimensions: intAtLeast(1) },
  { error: 'must be an object' },
);

/** Throws a ValidationError for the first rule `params` breaks. */
export function check(params: unknown): void {
  validate(embeddingParams, params);
}
