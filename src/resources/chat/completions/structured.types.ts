import type { RequestOptions } from '../../../core/types.js';
import type { ChatCompletionStream } from './stream.js';
import type { DefinedTool, ResponseFormatJSONSchema } from './structured.js';
import type {
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
  ResponseFormat,
} from './types.js';

// Types of chat.completions.parse() and runTools(): the result typed from the response
// format's schema, and tool calls typed from each tool's schema.

/** The arguments type of a tool made by `defineTool`, `unknown` for other tools. */
type ArgsOf<T> = T extends DefinedTool<string, infer A, unknown> ? A : unknown;
/** The name of a tool. */
type NameOf<T> = T extends { function: { name: infer N } } ? N : string;

/** A tool call with its arguments parsed and checked: typed by the tool's schema, narrowed by `function.name`. */
export type ParsedFunctionToolCall<Tool = ChatCompletionTool> = Tool extends unknown
  ? ChatCompletionMessageToolCall & { function: { name: NameOf<Tool>; arguments: string; parsed_arguments: ArgsOf<Tool> } }
  : never;

/** An assistant message of a parsed completion. */
export interface ParsedChatCompletionMessage<T = unknown, Tool = ChatCompletionTool> extends ChatCompletionMessage {
  /** The content parsed and validated by the response format's schema; null on a refusal or without a schema. */
  parsed: T | null;
  tool_calls?: Array<ParsedFunctionToolCall<Tool>> | undefined;
}

export interface ParsedChoice<T = unknown, Tool = ChatCompletionTool> extends ChatCompletionChoice {
  message: ParsedChatCompletionMessage<T, Tool>;
}

/** The result of `chat.completions.parse()`. */
export interface ParsedChatCompletion<T = unknown, Tool = ChatCompletionTool> extends ChatCompletion {
  choices: Array<ParsedChoice<T, Tool>>;
}

/**
 * A value as it streams in: every property optional, at every depth, every array's elements
 * partial (only the last one can be), a tuple's places optional. What `partialObjects()`
 * yields, of the schema's input.
 * @example
 * type Plan = { title: string; steps: Array<{ text: string; done: boolean }> };
 * const partial: DeepPartial<Plan> = { title: 'Mov', steps: [{ text: 'Pa' }] };
 */
export type DeepPartial<T> = T extends readonly [] | readonly [unknown, ...unknown[]]
  ? { -readonly [K in keyof T]?: DeepPartial<T[K]> }
  : T extends ReadonlyArray<infer U>
    ? Array<DeepPartial<U>>
    : T extends object
      ? { [K in keyof T]?: DeepPartial<T[K]> }
      : T;

/**
 * The stream of `chat.completions.parse({ stream: true })`: a {@link ChatCompletionStream}
 * whose `finalChatCompletion()` is parsed, and which can give the reply as typed partial objects.
 */
export interface ParsedChatCompletionStream<T = unknown, Tool = ChatCompletionTool, In = T> extends ChatCompletionStream<ParsedChatCompletion<T, Tool>> {
  /**
   * The reply as it is written: a {@link DeepPartial} of the schema's input (`In`: the JSON
   * so far, before any transform of the schema; `T` is what validation makes of it) each time it
   * grew, parsed as the content streams in time linear in its length (so, once the arrays
   * and objects being written hold hundreds of items, a partial every few deltas rather than
   * after each; the whole value always comes last). Each partial is a new
   * top-level object: what changed is new, what did not is the previous partial's own, so a
   * UI can compare by identity. A string may be cut short; a number, true, false or null
   * appears only once complete; a value never changes type. Partials are not validated:
   * the iteration ends once the reply is validated, and throws what
   * `finalChatCompletion()` rejects with (`ParseError` when the reply breaks its schema or is
   * cut). Content that cannot be JSON stops the request at once (`ParseError`); a stream that
   * fails throws its error; leaving the loop early cancels the request.
   *
   * It reads the stream itself, so call it before anything else reads it (`for await` on the
   * stream, or `finalChatCompletion()`): a second reader throws `GatewayError`. Once it is
   * called, `finalChatCompletion()` works at any time, during or after the loop. Follows the
   * first choice (`index: 0`).
   * @example
   * const stream = await client.chat.completions.parse({ model, messages, response_format: responseFormat(Plan, 'plan'), stream: true });
   * for await (const partial of stream.partialObjects()) render(partial);
   * const plan = (await stream.finalChatCompletion()).choices[0]?.message.parsed;
   */
  partialObjects(): AsyncIterableIterator<DeepPartial<In>>;
}

/** Parameters of `chat.completions.parse()`: a chat request whose response format and tools may come from `responseFormat()` and `defineTool()`. */
export interface ChatCompletionParseParams extends Omit<ChatCompletionCreateParamsBase, 'response_format' | 'tools'> {
  response_format?: ResponseFormatJSONSchema | ResponseFormat | undefined;
  tools?: ReadonlyArray<DefinedTool | ChatCompletionTool> | undefined;
}

/** What `message.parsed` becomes for these parameters. */
export type ParsedOf<P> = P extends { response_format: ResponseFormatJSONSchema<infer T, unknown> } ? T : P extends { response_format: { type: 'json_schema' | 'json_object' } } ? unknown : null;
/** What the JSON of the reply is for these parameters, before validation: what `partialObjects()` grows. */
export type PartialOf<P> = P extends { response_format: ResponseFormatJSONSchema<unknown, infer In> } ? In : ParsedOf<P>;
/** The tools of these parameters, as a union. */
export type ToolOf<P> = P extends { tools: ReadonlyArray<infer Tool> } ? Tool : ChatCompletionTool;

/** Parameters of `chat.completions.runTools()`: every tool made by `defineTool` with a `run`. */
export interface ChatCompletionRunToolsParams<Tools extends readonly DefinedTool[] = readonly DefinedTool[]> extends Omit<ChatCompletionCreateParamsBase, 'tools' | 'response_format'> {
  tools: Tools;
  response_format?: ResponseFormat | undefined;
}

/** What one tool call produced in a turn of `runTools()`. */
export type ToolCallResult<Tool = DefinedTool> = Tool extends DefinedTool<infer N, infer A, infer R>
  ? {
      call: ChatCompletionMessageToolCall;
      name: N;
      /** The checked arguments; undefined when they failed their schema. */
      args: A | undefined;
      /** What `run` returned; undefined when it threw or was not reached. */
      result: R | undefined;
      /** Why the call failed (sent back to the model as the tool result), if it did. */
      error: string | undefined;
      /** The text sent back to the model. */
      content: string;
    }
  : never;

/** One turn of `runTools()`: one request to the model, and the tool calls it produced. */
export interface ToolRunStep<Tool = DefinedTool> {
  /** 1 for the first model call. */
  turn: number;
  completion: ChatCompletion;
  toolResults: Array<ToolCallResult<Tool>>;
}

/** Options of `chat.completions.runTools()`, besides the usual request options (applied to every model call). */
export interface RunToolsOptions<Tool = DefinedTool> extends RequestOptions {
  /** Model calls allowed; past it, `ToolRunLimitError`. @default 10 */
  maxTurns?: number | undefined;
  /** Called once per turn with its completion and tool results; a returned promise is awaited before the next turn. */
  onStep?: ((step: ToolRunStep<Tool>) => unknown) | undefined;
  /** With `stream: true`: every chunk of every turn, e.g. to show text as it arrives. */
  onChunk?: ((chunk: ChatCompletionChunk) => void) | undefined;
}

/** The result of `runTools()`: the final completion and the whole transcript. */
export interface ToolRunResult {
  /** The model's last reply, with no tool calls. */
  completion: ChatCompletion;
  /** Every message: yours, the model's and the tool results, ready to continue the conversation. */
  messages: ChatCompletionMessageParam[];
}
