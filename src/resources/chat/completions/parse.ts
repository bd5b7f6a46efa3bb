import { ParseError } from '../../../core/errors.js';
import type { ChatCompletionParseParams, ParsedChatCompletion } from './structured.types.js';
import { slotOf } from './slot.js';
import type { StandardSchemaV1 } from './standard-schema.js';
import type { ChatCompletion, ChatCompletionMessageToolCall } from './types.js';

// A reply's JSON checked against the schemas behind its response format and tools (slot.ts),
// for parse() and runTools; the stream of parse({ stream: true }) is parse-stream.ts's.

/** A tool call's arguments, checked: the value, or why they failed (for runTools to tell the model). */
export type CheckedArguments = { ok: true; value: unknown } | { ok: false; error: ParseError };

/** Validates `value` with a Standard Schema; the issues as `path: message` lines. */
export async function validate(schema: StandardSchemaV1, value: unknown): Promise<{ ok: true; value: unknown } | { ok: false; issues: string[] }> {
  const result = await schema['~standard'].validate(value);
  if (!result.issues) return { ok: true, value: result.value };
  const issues = result.issues.map((issue) => {
    const path = (issue.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  return { ok: false, issues };
}

/** Parses JSON text and checks it with `schema` (when given); a ParseError carries the raw text. */
async function parseJSON(text: string, schema: StandardSchemaV1 | undefined, what: string): Promise<unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ParseError(`${what} is not valid JSON: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`, text, [], { cause });
  }
  if (!schema) return value;
  const checked = await validate(schema, value);
  if (!checked.ok) throw new ParseError(`${what} does not match its schema: ${checked.issues.join('; ')}`, text, checked.issues);
  return checked.value;
}

/** Checks one tool call's arguments against its tool's schema (made by defineTool); other tools' arguments are only parsed. */
export async function checkArguments(call: ChatCompletionMessageToolCall, tools: ChatCompletionParseParams['tools']): Promise<CheckedArguments> {
  const tool = tools?.find((t) => t.function.name === call.function.name);
  try {
    return { ok: true, value: await parseJSON(call.function.arguments, slotOf(tool)?.schema, `The arguments of ${call.function.name}`) };
  } catch (error) {
    if (error instanceof ParseError) return { ok: false, error };
    throw error;
  }
}

/**
 * A completion with `message.parsed` (the content checked by the response format's schema;
 * null on a refusal or when there is no json response format) and every tool call's
 * `function.parsed_arguments`.
 */
export async function parseCompletion<T>(completion: ChatCompletion, body: ChatCompletionParseParams): Promise<ParsedChatCompletion<T>> {
  const format = body.response_format;
  const schema = slotOf(format)?.schema;
  const wantsJSON = format?.type === 'json_schema' || format?.type === 'json_object';
  const choices = await Promise.all(
    completion.choices.map(async (choice) => {
      const { message } = choice;
      let parsed: unknown = null;
      if (wantsJSON && typeof message.content === 'string' && !message.refusal) {
        const cut = choice.finish_reason === 'length' ? ' (the reply was cut at max_tokens)' : '';
        parsed = await parseJSON(message.content, schema, `The reply${cut}`);
      }
      const tool_calls = message.tool_calls
        ? await Promise.all(
            message.tool_calls.map(async (call) => {
              const checked = await checkArguments(call, body.tools);
              if (!checked.ok) throw checked.error;
              return { ...call, function: { ...call.function, parsed_arguments: checked.value } };
            }),
          )
        : undefined;
      return { ...choice, message: { ...message, parsed, ...(tool_calls ? { tool_calls } : {}) } };
    }),
  );
  return { ...completion, choices } as ParsedChatCompletion<T>;
}
