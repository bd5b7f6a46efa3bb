import * as z from 'zod/mini';
import { validate } from '../../../core/validation.js';
import { intAtLeast, intBetween, integer, model, nonEmpty, range, stream, streamOptions, text } from '../../shared/schema.js';
import { isToolName, TOOL_NAME_RULE } from './tool-name.js';

// Checks only what the SDK can judge before sending; every object is loose so vendor
// extras pass through untouched. Messages are written for people: "must be …".
// Only a few zod kinds are used (object, array, union, literal, string, number, boolean):
// each further kind adds to every app's bundle. Unions tagged by `role` or `type` are
// explained by core/validation.ts as a discriminated union would be.

const textPart = z.looseObject({ type: z.literal('text'), text: text() });
const imageURLRule = 'must be a non-empty URL (https:// or data:image/...;base64,...)';
// Other schemes (http, ftp, file) are refused by the gateway after the request is paid for.
const imageURL = text(imageURLRule).check(z.refine((url) => /^(https:\/\/|data:)/i.test(url), { error: imageURLRule }));
const imagePart = z.looseObject({
  type: z.literal('image_url'),
  image_url: z.looseObject(
    {
      url: imageURL,
      detail: z.optional(z.literal(['auto', 'low', 'high'], { error: "must be 'auto', 'low' or 'high'" })),
    },
    { error: 'must be an object { url }' },
  ),
});
const audioPart = z.looseObject({
  type: z.literal('input_audio'),
  input_audio: z.looseObject({ data: text(), format: z.literal(['wav', 'mp3'], { error: "must be 'wav' or 'mp3'" }) }),
});
const partRule = "must be a content part { type: 'text' | 'image_url' | 'input_audio', ... }";
const userPart = z.union([textPart, imagePart, audioPart], { error: partRule });

const textContent = z.union([text(), z.array(textPart)], { error: 'must be a string or an array of text parts' });
const userContent = z.union([text(), z.array(userPart).check(z.minLength(1, { error: 'must not be empty' }))], {
  error: 'must be a string or an array of content parts',
});

const toolCall = z.looseObject({
  id: text(),
  type: z.literal('function', { error: "must be 'function'" }),
  function: z.looseObject({ name: nonEmpty('must be a non-empty string'), arguments: text('must be a JSON string') }),
});

const roles = "must be a message with role 'system', 'developer', 'user', 'assistant' or 'tool'";
// Most messages are user and assistant ones; zod tries a union's options in order and builds
// an issue for each that fails, so the common roles come first.
const message = z.union(
  [
    z.looseObject({ role: z.literal('user'), content: userContent }),
    z.looseObject({
      role: z.literal('assistant'),
      content: z.optional(z.nullable(textContent)),
      tool_calls: z.optional(z.array(toolCall, { error: 'must be an array of tool calls' })),
      // Its type only: whether the model takes it back is the vendor's rule (docs/chat.md#reasoning-models).
      reasoning_content: z.optional(z.nullable(text())),
    }),
    z.looseObject({ role: z.literal('system'), content: textContent }),
    z.looseObject({ role: z.literal('tool'), content: textContent, tool_call_id: nonEmpty('must be the id of the tool call answered') }),
    z.looseObject({ role: z.literal('developer'), content: textContent }),
  ],
  { error: roles },
);

const tool = z.looseObject({
  type: z.literal('function', { error: "must be 'function'" }),
  function: z.looseObject({
    name: text(TOOL_NAME_RULE).check(z.refine(isToolName, { error: TOOL_NAME_RULE })),
    parameters: z.optional(z.looseObject({}, { error: 'must be a JSON Schema object' })),
  }),
});

const toolChoice = z.union(
  [
    z.literal(['none', 'auto', 'required']),
    z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: nonEmpty('must be a non-empty string') }) }),
  ],
  { error: "must be 'none', 'auto', 'required' or { type: 'function', function: { name } }" },
);

const logitBiasRule = 'must map token ids to numbers between -100 and 100';

/** Parameters of POST /chat/completions. */
const chatCompletionParams = z.looseObject(
  {
    model: model('gpt-4o-mini'),
    messages: z.array(message, { error: 'must be an array of messages' }).check(z.minLength(1, { error: 'must contain at least one message' })),
    temperature: range(0, 2),
    top_p: range(0, 1),
    presence_penalty: range(-2, 2),
    frequency_penalty: range(-2, 2),
    max_tokens: intAtLeast(1),
    max_completion_tokens: intAtLeast(1),
    n: intAtLeast(1),
    logit_bias: z.optional(
      z.nullable(
        z.looseObject({}, { error: logitBiasRule }).check(
          z.refine((bias) => Object.values(bias).every((v) => typeof v === 'number' && v >= -100 && v <= 100), { error: logitBiasRule }),
        ),
      ),
    ),
    top_logprobs: intBetween(0, 20),
    seed: z.optional(z.nullable(integer('must be an integer'))),
    stop: z.optional(
      z.nullable(
        z.union([text(), z.array(text()).check(z.maxLength(4, { error: 'must have at most 4 sequences' }))], {
          error: 'must be a string or an array of up to 4 strings',
        }),
      ),
    ),
    tools: z.optional(z.array(tool, { error: 'must be an array of tools' })),
    tool_choice: z.optional(toolChoice),
    response_format: z.optional(
      z.looseObject({ type: z.literal(['text', 'json_object', 'json_schema'], { error: "must be 'text', 'json_object' or 'json_schema'" }) }),
    ),
    stream: stream(),
    stream_options: streamOptions(),
    user: z.optional(text()),
  },
  { error: 'must be an object' },
);

/** Throws a ValidationError for the first rule `params` breaks. */
export function check(params: unknown): void {
  validate(chatCompletionParams, params);
}
