import * as z from 'zod/mini';
import { ValidationError } from '../../core/errors.js';
import type { Schema } from '../../core/types.js';
import { validate } from '../../core/validation.js';
import { imageSizesByModel } from './sizes.js';
import { intAtLeast, model, nonEmpty, oneOf } from '../shared/schema.js';

const sizeRule = 'must be <width>x<height>, e.g. 1024x1024';
const size = z.optional(z.nullable(z.string({ error: sizeRule }).check(z.refine((v) => /^\d+x\d+$/.test(v), { error: sizeRule }))));

/** Fields generation and edits share. */
const common = { n: intAtLeast(1), size, response_format: oneOf(['url', 'b64_json']) };

const generateParams = z.looseObject(
  {
    ...common,
    model: model('dall-e-3'),
    prompt: nonEmpty('is required: a description of the image'),
    quality: oneOf(['standard', 'hd']),
    style: oneOf(['vivid', 'natural']),
  },
  { error: 'must be an object' },
);

const editParams = z.looseObject({ ...common, model: model('dall-e-2'), prompt: nonEmpty('is required: what to change') }, { error: 'must be an object' });

/** The size must be one the model supports, for the models the gateway documents. */
function checkSize(params: { model?: unknown; size?: unknown }): void {
  const sizes: Readonly<Record<string, readonly string[]>> = imageSizesByModel;
  const allowed = typeof params.model === 'string' && Object.prototype.hasOwnProperty.call(sizes, params.model) ? sizes[params.model] : undefined;
  if (allowed && typeof params.size === 'string' && !allowed.includes(params.size)) {
    throw new ValidationError('size', `must be one of ${allowed.join(', ')} for ${params.model}`);
  }
}

/** POST images/generations: the params, and the size against the model's documented sizes. */
export const generateSchema: Schema = {
  check(params) {
    validate(generateParams, params);
    checkSize(params as { model?: unknown; size?: unknown });
  },
};

/** POST images/edits: the fields (files are checked as they are read), and the size. */
export const editSchema: Schema = {
  check(params) {
    validate(editParams, params);
    if ((params as { image?: unknown }).image === undefined) throw new ValidationError('image', 'is required: the image to edit');
    checkSize(params as { model?: unknown; size?: unknown });
  },
};
