import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3GenerateResult, LanguageModelV3StreamResult, SharedV3Warning } from '@ai-sdk/provider';
import type { ChatCompletionCreateParamsBase, ChatCompletionTool, ChatCompletionToolChoiceOption, Gateway, RequestOptions, ResponseFormat } from '../index.js';
import { answeringModel, reasoningRuleFor } from '../resources/chat/completions/reasoning.js';
import { convertPrompt } from './convert-prompt.js';
import { callGateway, type CallContext } from './errors.js';
import { mapFinishReason, mapUsage } from './map-response.js';
import { costMetadata, headersOf, PROVIDER_OPTIONS_KEY, reasoningMetadata, requestOptions, splitProviderOptions, toolCallMetadata } from './shared.js';
import { reasoningText } from '../resources/chat/completions/reasoning-fields.js';
import { toStreamParts } from './stream-parts.js';

/** A chat model of the gateway, as the AI SDK's language model (specification v3). */
export class UnifiedGatewayLanguageModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = 'unified-gateway.chat';
  readonly modelId: string;
  /** Image URLs are passed to the gateway as they are, not downloaded by the AI SDK first. */
  readonly supportedUrls: Record<string, RegExp[]> = { 'image/*': [/^https?:\/\/.+$/i] };
  // Not a #private field: ai 7 wraps a v3 model in a Proxy and calls its methods on the
  // proxy, where #private fields cannot be read.
  private readonly client: () => Gateway;

  constructor(modelId: string, client: () => Gateway) {
    this.modelId = modelId;
    this.client = client;
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const client = this.client();
    const { body, request, warnings } = this.prepare(options, client);
    const context: CallContext = { url: `${client.baseURL}/chat/completions`, requestBodyValues: body };
    const { data, response, cost } = await callGateway(context, () => client.chat.completions.create({ ...body, stream: false }, request).withResponse());
    const choice = data.choices[0];
    const message = choice?.message ?? { role: 'assistant', content: null };
    const content: LanguageModelV3Content[] = [];
    // The reasoning's fields ride on the part, to go back as they came to the model that wrote
    // them (convert-prompt.ts).
    const writer = this.writer(client, request, data.model);
    const reasoning = reasoningText(message);
    const reasoningFields = reasoningMetadata(message, writer);
    if (reasoning || reasoningFields) content.push({ type: 'reasoning', text: reasoning ?? '', ...(reasoningFields ? { providerMetadata: reasoningFields } : {}) });
    if (message.content) content.push({ type: 'text', text: message.content });
    for (const call of message.tool_calls ?? []) {
      content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.function.name, input: call.function.arguments || '{}', ...toolCallMetadata(call.extra_content, writer) });
    }
    // What the call cost, with the client's `cost` option (undefined from an older copy of the package's client).
    const metadata = { ...(message.refusal ? { refusal: message.refusal } : {}), ...costMetadata(cost) };
    return {
      content,
      finishReason: mapFinishReason(choice?.finish_reason),
      usage: mapUsage(data.usage),
      ...(Object.keys(metadata).length ? { providerMetadata: { [PROVIDER_OPTIONS_KEY]: metadata } } : {}),
      request: { body },
      response: { id: data.id, modelId: data.model, timestamp: new Date(data.created * 1000), headers: headersOf(response), body: data },
      warnings,
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const client = this.client();
    const prepared = this.prepare(options, client);
    // Usage always: without it the AI SDK reports NaN tokens for every stream. A caller
    // who set stream_options keeps theirs.
    const body = { ...prepared.body, stream: true as const, stream_options: prepared.body.stream_options ?? { include_usage: true } };
    const context: CallContext = { url: `${client.baseURL}/chat/completions`, requestBodyValues: body };
    const { data: stream, response } = await callGateway(context, () => client.chat.completions.create(body, prepared.request).withResponse());
    return {
      stream: toStreamParts(stream, { warnings: prepared.warnings, includeRawChunks: options.includeRawChunks === true, context, writer: (answered) => this.writer(client, prepared.request, answered) }),
      request: { body },
      response: { headers: headersOf(response) },
    };
  }

  private prepare(options: LanguageModelV3CallOptions, client: Gateway) {
    const warnings: SharedV3Warning[] = [];
    if (options.topK !== undefined) warnings.push({ type: 'unsupported', feature: 'topK' });
    const extras = splitProviderOptions(options.providerOptions);
    const tools: ChatCompletionTool[] = [];
    for (const tool of options.tools ?? []) {
      if (tool.type === 'function') {
        tools.push({ type: 'function', function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters: tool.inputSchema as Record<string, unknown>, ...(tool.strict !== undefined ? { strict: tool.strict } : {}) } });
      } else {
        warnings.push({ type: 'unsupported', feature: `provider-defined tool ${tool.id}` });
      }
    }
    const body: ChatCompletionCreateParamsBase & Record<string, unknown> = {
      model: this.modelId,
      messages: convertPrompt(options.prompt, reasoningRuleFor(this.modelId, reasoningRulesOf(client)), this.modelId),
      ...defined({
        max_tokens: options.maxOutputTokens,
        temperature: options.temperature,
        top_p: options.topP,
        stop: options.stopSequences?.length ? options.stopSequences : undefined,
        seed: options.seed,
        presence_penalty: options.presencePenalty,
        frequency_penalty: options.frequencyPenalty,
        response_format: responseFormat(options.responseFormat),
        tools: tools.length ? tools : undefined,
        tool_choice: tools.length ? toolChoice(options.toolChoice) : undefined,
      }),
      ...extras.body,
    };
    return { body, request: requestOptions(options, extras.request), warnings };
  }

  /**
   * The model that wrote a reply whose `model` is `answered`: this one, or a fallback of the
   * call's (the request's list, else the client's). Recorded on the reply's parts, whose
   * reasoning fields go back to that model only; an answer that cannot be placed is recorded
   * as the reply spelt it (another model's, not this one's).
   */
  private writer(client: Gateway, request: RequestOptions, answered: unknown): string {
    const fallbacks = request.fallbackModels ?? fallbackModelsOf(client)[this.modelId] ?? [];
    return answeringModel(this.modelId, fallbacks, answered) ?? (typeof answered === 'string' && answered !== this.modelId ? answered : '');
  }
}

/** The client's `fallbackModels`; none from a client of an older copy of the package. */
function fallbackModelsOf(client: Gateway): Readonly<Record<string, readonly string[]>> {
  const completions: Partial<Pick<Gateway['chat']['completions'], '_fallbackModels'>> = client.chat.completions;
  return typeof completions._fallbackModels === 'function' ? completions._fallbackModels() : {};
}

/** The client's `reasoningRules`; none from a client of an older copy of the package, which createUnifiedGateway also takes. */
function reasoningRulesOf(client: Gateway): ReturnType<Gateway['chat']['completions']['_reasoningRules']> {
  const completions: Partial<Pick<Gateway['chat']['completions'], '_reasoningRules'>> = client.chat.completions;
  return typeof completions._reasoningRules === 'function' ? completions._reasoningRules() : {};
}

function responseFormat(format: LanguageModelV3CallOptions['responseFormat']): ResponseFormat | undefined {
  if (format?.type !== 'json') return undefined;
  if (!format.schema) return { type: 'json_object' };
  return { type: 'json_schema', json_schema: { name: format.name ?? 'response', ...(format.description ? { description: format.description } : {}), schema: format.schema as Record<string, unknown> } };
}

function toolChoice(choice: LanguageModelV3CallOptions['toolChoice']): ChatCompletionToolChoiceOption | undefined {
  if (!choice) return undefined;
  return choice.type === 'tool' ? { type: 'function', function: { name: choice.toolName } } : choice.type;
}

function defined<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
