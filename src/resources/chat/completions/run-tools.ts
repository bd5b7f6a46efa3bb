import { untilAborted } from '../../../internal/signals.js';
import { APIUserAbortError, ValidationError } from '../../../core/errors.js';
import { ToolRunLimitError } from '../../errors.js';
import type { Redactor } from '../../../internal/redact.js';

import type { ChatCompletionRunToolsParams, RunToolsOptions, ToolCallResult, ToolRunResult } from './structured.types.js';
import { checkArguments } from './parse.js';
import { slotOf } from './slot.js';
import { answeringModel, prepareAssistantTurn, reasoningRuleFor, type ResolvedReasoningRule } from './reasoning.js';
import type { DefinedTool } from './structured.js';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessageParam, ChatCompletionMessageToolCall, ChatCompletionCreateParams } from './types.js';
import type { ChatCompletionStream } from './stream.js';

/** What the loop needs from `client.chat.completions`. */
export interface ChatCaller {
  create(body: ChatCompletionCreateParams, options?: RunToolsOptions): PromiseLike<ChatCompletion | ChatCompletionStream>;
}

/** What `runTools` takes from the client. */
export interface RunToolsContext {
  redactor: Redactor;
  /** The client's `reasoningRules`, resolved. */
  reasoningRules: Readonly<Record<string, ResolvedReasoningRule>>;
  /** The client's `fallbackModels`, per model id: which models may answer a turn instead. */
  fallbackModels?: Readonly<Record<string, readonly string[]>> | undefined;
}

/** How many model calls `runTools` makes at most by default. */
export const DEFAULT_MAX_TURNS = 10;

/**
 * The loop behind `chat.completions.runTools()`: call the model; run the tool calls it asks
 * for, concurrently; send their results (or the errors they met, as text the model can
 * recover from) back; repeat until it answers without tool calls, or `maxTurns` is reached.
 */
export async function runTools(chat: ChatCaller, body: ChatCompletionRunToolsParams, options: RunToolsOptions, { redactor, reasoningRules, fallbackModels = {} }: RunToolsContext): Promise<ToolRunResult> {
  const { maxTurns = DEFAULT_MAX_TURNS, onStep, onChunk, signal, ...requestOptions } = options;
  if (!Number.isInteger(maxTurns) || maxTurns < 1) throw new ValidationError('maxTurns', 'must be an integer >= 1');
  if (!Array.isArray(body?.tools) || body.tools.length === 0) throw new ValidationError('tools', 'must be a non-empty array of tools made by defineTool({ ..., run })');
  body.tools.forEach((tool, i) => {
    if (typeof slotOf(tool)?.run !== 'function') throw new ValidationError(`tools[${i}]`, 'needs a run function: make it with defineTool({ name, parameters, run })');
  });
  const messages: ChatCompletionMessageParam[] = [...body.messages];
  // By the requested model: the next request goes to it first. A model that is not a string
  // fails the schema check of the first request.
  const model = typeof body.model === 'string' ? body.model : '';
  const rule: ResolvedReasoningRule = reasoningRuleFor(model, reasoningRules);
  // A fallback model may answer a turn: its reasoning fields are its own, and do not go back
  // to the requested model (a strict host refuses them); the request's list replaces the client's.
  const fallbacks = requestOptions.fallbackModels ?? (Object.hasOwn(fallbackModels, model) ? fallbackModels[model] : undefined) ?? [];
  const aborted = () => new APIUserAbortError(undefined, { cause: signal?.reason });

  for (let turn = 1; ; turn++) {
    if (signal?.aborted) throw aborted();
    const completion = await ask(chat, { ...body, messages }, { ...requestOptions, signal }, onChunk);
    const message = completion.choices[0]?.message;
    const calls = message?.tool_calls ?? [];
    messages.push(prepareAssistantTurn(message ?? { content: null }, rule, answeringModel(model, fallbacks, completion.model) === model));
    if (calls.length === 0 || turn >= maxTurns) {
      await onStep?.({ turn, completion, toolResults: [] });
      if (calls.length === 0) return { completion, messages };
      throw new ToolRunLimitError(maxTurns, messages, completion);
    }
    const toolResults = await untilAborted(Promise.all(calls.map((call) => runOne(call, body.tools, signal, redactor))), signal).catch((error: unknown) => {
      throw signal?.aborted ? aborted() : error;
    });
    for (const result of toolResults) messages.push({ role: 'tool', tool_call_id: result.call.id, content: result.content });
    await onStep?.({ turn, completion, toolResults });
  }
}

/** One model call, streamed when the body asks for it (every chunk goes to onChunk). */
async function ask(chat: ChatCaller, body: ChatCompletionRunToolsParams, options: RunToolsOptions, onChunk: ((chunk: ChatCompletionChunk) => void) | undefined): Promise<ChatCompletion> {
  const params = { ...body, tools: [...body.tools] } as ChatCompletionCreateParams;
  if (!body.stream) return (await chat.create({ ...params, stream: false }, options)) as ChatCompletion;
  const stream = (await chat.create({ ...params, stream: true }, options)) as ChatCompletionStream;
  if (onChunk) for await (const chunk of stream) onChunk(chunk);
  return stream.finalChatCompletion();
}

/** Runs one tool call; whatever goes wrong becomes the text the model gets back. */
async function runOne(call: ChatCompletionMessageToolCall, tools: readonly DefinedTool[], signal: AbortSignal | undefined, redactor: Redactor): Promise<ToolCallResult> {
  const name = call.function.name;
  const failed = (error: string): ToolCallResult => ({ call, name, args: undefined, result: undefined, error, content: `Error: ${error}` });
  const tool = tools.find((t) => t.function.name === name);
  if (!tool) return failed(`there is no tool named "${name}"; the tools are ${tools.map((t) => t.function.name).join(', ')}.`);
  const checked = await checkArguments(call, tools);
  if (!checked.ok) return failed(`invalid arguments for ${name}: ${checked.error.issues.length ? checked.error.issues.join('; ') : checked.error.message}`);
  const run = slotOf(tool)?.run as (args: unknown, context: { call: ChatCompletionMessageToolCall; signal: AbortSignal }) => unknown;
  try {
    const result = await run(checked.value, { call, signal: signal ?? new AbortController().signal });
    return { call, name, args: checked.value, result, error: undefined, content: typeof result === 'string' ? result : (JSON.stringify(result) ?? '') };
  } catch (error) {
    if (signal?.aborted) throw error;
    // The plain message for a plain Error; other classes keep their name (TypeError: …).
    const text = redactor.string(error instanceof Error ? (error.name === 'Error' ? error.message : `${error.name}: ${error.message}`) : String(error));
    return { ...failed(`${name} failed: ${text}`), args: checked.value };
  }
}
