import * as z from 'zod/mini';
import { validate } from '../../core/validation.js';
import { intAtLeast, model, nonEmpty, range, stream, streamOptions } from '../shared/schema.js';

const promptRule = 'must be a non-empty string, an array of them, or token arrays';
const prompt = z.union(
  [
    nonEmpty(promptRule),
    z.array(z.union([nonEmpty(promptRule), z.number(), z.array(z.number())])).check(z.minLength(1, { error: 'must not be empty' })),
  ],
  { error: promptRule },
);

/** Parameters of POST /completions; vendor extras pass through. */
const completionParams = z.looseObject(
  {
    model: model('gpt-3.5-turbo-instruct'),
    prompt,
    max_tokens: intAtLeast(0),
    temperature: range(0, 2),
    top_p: range(0, 1),
    n: intAtLeast(1),
    presence_penalty: range(-2, 2),
    frequency_penalty: range(-2, 2),
    logprobs: range(0, 5),
    best_of: intAtLeast(1),
    stream: stream(),
    stream_options: streamOptions(),
  },
  { error: 'must be an object' },
);

/** Throws a ValidationError for the first rule `params` breaks. */
export function check(params: unknown): void {
  validate(completionParams, params);
}
