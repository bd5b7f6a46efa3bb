import type { APIPromise } from '../../../core/api-promise.js';
import type { AdaptHooks, RequestOptions, ResolvedReasoningRule } from '../../../core/types.js';
import { APIResource, configOf } from '../../../core/resource.js';
import { Models } from '../../models/index.js';
import { parseCompletion } from './parse.js';
import { ParsingChatCompletionStream } from './parse-stream.js';
import * as schema from './schema.js';
import { ChatCompletionStream } from './stream.js';
import type {
  ChatCompletionParseParams,
  ChatCompletionRunToolsParams,
  ParsedChatCompletion,
  ParsedChatCompletionStream,
  ParsedOf,
  PartialOf,
  RunToolsOptions,
  ToolOf,
  ToolRunResult,
} from './structured.types.js';
import type { DefinedTool } from './structured.js';
import { wireBody } from './wire-body.js';
import type { ChatCompletion, ChatCompletionCreateParams, ChatCompletionCreateParamsNonStreaming, ChatCompletionCreateParamsStreaming } from './types.js';

/** `client.chat.completions` */
export class ChatCompletions extends APIResource {
  /**
   * A chat request is adapted to each model it goes to (core/request/adapt-step.ts); a model
   * that answers only on /v1/responses is served there by this route, loaded with the first
   * such request: a chat app whose models answer on chat/completions never carries it. What
   * the gateway's table says a model answers on is read only after a refusal that does not say.
   */
  readonly #adapt: AdaptHooks = {
    responses: () => import('./responses-route.js').then((route) => route.responsesRoute),
    listedEndpoints: async (model, { signal, waitMs }) => (await new Models(this._client)._gatewayInfo({ signal, waitMs, quiet: true }))?.models.get(model)?.supportedEndpointTypes,
  };

  /**
   * Creates a chat completion; with `stream: true` resolves to a {@link ChatCompletionStream}.
   * Parameters are checked before anything is sent ({@link ValidationError}).
   * @example
   * const completion = await client.chat.completions.create({
   *   model: 'gpt-4o-mini',
   *   messages: [{ role: 'user', content: 'Say hello' }],
   * });
   * console.log(completion.choices[0]?.message.content);
   */
  create(body: ChatCompletionCreateParamsNonStreaming, options?: RequestOptions): APIPromise<ChatCompletion>;
  create(body: ChatCompletionCreateParamsStreaming, options?: RequestOptions): APIPromise<ChatCompletionStream>;
  create(body: ChatCompletionCreateParams, options?: RequestOptions): APIPromise<ChatCompletion | ChatCompletionStream>;
  create(body: ChatCompletionCreateParams, options?: RequestOptions): APIPromise<ChatCompletion | ChatCompletionStream> {
    return this._post<ChatCompletion | ChatCompletionStream>('chat/completions', { body: wireBody(body), schema, stream: ChatCompletionStream, cache: 'whole', adapt: this.#adapt }, options);
  }

  /**
   * Creates a chat completion and parses it: `message.parsed` is the reply validated by the
   * schema of a {@link responseFormat} (null on a refusal, whose text stays on
   * `message.refusal`), and each tool call of a {@link defineTool} tool gets
   * `function.parsed_arguments`. A reply that is not valid JSON, or fails its schema, rejects
   * with `ParseError` (the raw text on `content`). With `stream: true`, resolves to a stream
   * whose `finalChatCompletion()` is parsed and whose `partialObjects()` gives the reply as
   * typed partial objects while it is written.
   * @example
   * const Weather = z.object({ city: z.string(), celsius: z.number() });
   * const completion = await client.chat.completions.parse({
   *   model: 'gpt-4o-mini',
   *   messages: [{ role: 'user', content: 'Weather in Paris?' }],
   *   response_format: responseFormat(Weather, 'weather'),
   * });
   * console.log(completion.choices[0]?.message.parsed?.celsius);
   */
  parse<P extends ChatCompletionParseParams & { stream?: false | null | undefined }>(body: P, options?: RequestOptions): APIPromise<ParsedChatCompletion<ParsedOf<P>, ToolOf<P>>>;
  parse<P extends ChatCompletionParseParams & { stream: true }>(body: P, options?: RequestOptions): APIPromise<ParsedChatCompletionStream<ParsedOf<P>, ToolOf<P>, PartialOf<P>>>;
  parse(body: ChatCompletionParseParams, options?: RequestOptions): APIPromise<ParsedChatCompletion> | APIPromise<ParsedChatCompletionStream> {
    const map = (data: unknown) => parseCompletion(data as ChatCompletion, body);
    return this._post<ParsedChatCompletion | ParsedChatCompletionStream>('chat/completions', { body: wireBody(body), schema, stream: ParsingChatCompletionStream, streamParams: body, map, cache: 'whole', adapt: this.#adapt }, options) as
      | APIPromise<ParsedChatCompletion>
      | APIPromise<ParsedChatCompletionStream>;
  }

  /**
   * Runs a conversation with tools to its end: calls the model, runs the tool calls it asks
   * for (concurrently, arguments checked by each tool's schema), sends the results back,
   * and repeats until the model answers without tool calls. A tool that throws, or arguments
   * that fail their schema, are sent back to the model as text so it can recover. Past
   * `maxTurns` model calls (default 10) it rejects with `ToolRunLimitError`, the transcript
   * on `err.messages`. `signal` aborts between and during turns. With `stream: true` every
   * turn is streamed (`onChunk` sees each chunk).
   * @example
   * const { completion, messages } = await client.chat.completions.runTools(
   *   { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [getWeather] },
   *   { maxTurns: 5, onStep: (step) => console.log(step.turn, step.toolResults.map((r) => r.name)) },
   * );
   * console.log(completion.choices[0]?.message.content);
   */
  async runTools<const Tools extends readonly DefinedTool[]>(body: ChatCompletionRunToolsParams<Tools>, options: RunToolsOptions<Tools[number]> = {}): Promise<ToolRunResult> {
    // Loaded with the first tool run: a plain chat app never carries the loop.
    const { runTools } = await import('./run-tools.js');
    const { redactor, reasoningRules, fallbackModels } = configOf(this._client);
    return runTools(this, body, options as RunToolsOptions, { redactor, reasoningRules, fallbackModels });
  }

  /**
   * @internal A chat completion sent exactly as given, for the `probe` command, which measures
   * what a model takes: no model rule renames, drops or reroutes anything, and nothing learnt
   * from its refusals.
   */
  _createAsSent(body: ChatCompletionCreateParamsNonStreaming, options?: RequestOptions): APIPromise<ChatCompletion> {
    return this._post<ChatCompletion>('chat/completions', { body, schema, cache: 'whole' }, { ...options, cache: 'bypass' });
  }

  /**
   * @internal This client's `reasoningRules` (its overrides of the table of
   * docs/chat.md#reasoning-models), for the AI SDK provider, which builds assistant turns from
   * a prompt with `reasoningRuleFor` and `prepareAssistantTurn` of reasoning.ts.
   */
  _reasoningRules(): Readonly<Record<string, ResolvedReasoningRule>> {
    return configOf(this._client).reasoningRules;
  }

  /**
   * @internal This client's `fallbackModels`, for the AI SDK provider: which models may answer
   * a call, whose reasoning then goes back to none other (reasoning.ts `answeringModel`).
   */
  _fallbackModels(): Readonly<Record<string, readonly string[]>> {
    return configOf(this._client).fallbackModels;
  }
}
