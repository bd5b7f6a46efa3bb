// Every name this entry emits, in one place: the OpenTelemetry GenAI semantic conventions
// (still "Development": the npm semantic-conventions package marks its gen_ai constants
// deprecated, so they are defined here), the HTTP and server conventions for each attempt,
// and the few names of this SDK's own. https://github.com/open-telemetry/semantic-conventions-genai

/** Span and metric attributes. */
export const ATTR = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  /** The name `gen_ai.provider.name` had up to v1.36 of the conventions, deprecated: only with `legacyAttributes: true`. */
  system: 'gen_ai.system',
  requestModel: 'gen_ai.request.model',
  requestTemperature: 'gen_ai.request.temperature',
  requestTopP: 'gen_ai.request.top_p',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  requestStopSequences: 'gen_ai.request.stop_sequences',
  requestFrequencyPenalty: 'gen_ai.request.frequency_penalty',
  requestPresencePenalty: 'gen_ai.request.presence_penalty',
  requestSeed: 'gen_ai.request.seed',
  requestStream: 'gen_ai.request.stream',
  requestChoiceCount: 'gen_ai.request.choice.count',
  requestEncodingFormats: 'gen_ai.request.encoding_formats',
  embeddingsDimensionCount: 'gen_ai.embeddings.dimension.count',
  outputType: 'gen_ai.output.type',
  responseId: 'gen_ai.response.id',
  responseModel: 'gen_ai.response.model',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  responseTimeToFirstChunk: 'gen_ai.response.time_to_first_chunk',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  usageCacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  usageReasoningOutputTokens: 'gen_ai.usage.reasoning.output_tokens',
  tokenType: 'gen_ai.token.type',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  errorType: 'error.type',
  httpRequestMethod: 'http.request.method',
  httpResponseStatusCode: 'http.response.status_code',
  httpRequestResendCount: 'http.request.resend_count',
  urlFull: 'url.full',
  urlTemplate: 'url.template',
  /** This SDK's own: the stream was left by the caller before its end (`break`, `return()`). */
  streamLeft: 'unified_gateway.stream.left',
  /** This SDK's own, on a fallback event: the model given up and the model tried next. */
  fallbackFrom: 'unified_gateway.fallback.from',
  fallbackTo: 'unified_gateway.fallback.to',
  /** This SDK's own: what the response cache made of the call (`hit`: nothing was sent). */
  cache: 'unified_gateway.cache',
  /** This SDK's own, on a fleet event: what the fleet's state did, and how long the call waited. */
  fleetEvent: 'unified_gateway.fleet.event',
  fleetWaitMs: 'unified_gateway.fleet.wait_ms',
  /**
   * This SDK's own, with the client's `cost` (docs/cost.md): what the call cost in the
   * gateway's quota units, in US dollars (absent where the gateway's unit is not money), and
   * how it is known (`priced`, `billed`, `estimated`). The GenAI conventions define no cost
   * attribute (their registry has token counts only, `gen_ai.usage.*`), so these keep this
   * SDK's namespace rather than guess at a `gen_ai.*` name.
   */
  costQuota: 'unified_gateway.cost.quota',
  costUSD: 'unified_gateway.cost.usd',
  costSource: 'unified_gateway.cost.source',
} as const;

/** Span events. */
export const EVENT = {
  /** The call moved on to the next of its fallback models. */
  modelFallback: 'unified_gateway.model_fallback',
  /** The fleet's shared state (docs/fleet.md) changed what the call does. */
  fleet: 'unified_gateway.fleet',
} as const;

/**
 * `gen_ai.operation.name` values, all defined by the conventions (model/gen-ai/registry.yaml):
 * endpoints they have no name of their own for are `generate_content` ("multimodal content
 * generation"), and {@link OUTPUT_TYPE} says what they generate.
 */
export const OPERATION = {
  chat: 'chat',
  textCompletion: 'text_completion',
  embeddings: 'embeddings',
  /** The responses endpoint: a chat turn in another shape. */
  responses: 'chat',
  generateContent: 'generate_content',
} as const;

/** `gen_ai.output.type` values (the conventions' members: text, json, image, speech). */
export const OUTPUT_TYPE = { text: 'text', json: 'json', image: 'image' } as const;

/** Metric instruments. */
export const METRIC = {
  operationDuration: 'gen_ai.client.operation.duration',
  tokenUsage: 'gen_ai.client.token.usage',
  timeToFirstChunk: 'gen_ai.client.operation.time_to_first_chunk',
  timePerOutputChunk: 'gen_ai.client.operation.time_per_output_chunk',
} as const;

/** The conventions' bucket boundaries for the durations (s). */
export const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];

/** The conventions' bucket boundaries for token counts. */
export const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];

/** The default `gen_ai.provider.name`: the gateway, whatever provider serves the model behind it. */
export const DEFAULT_PROVIDER = 'unified_gateway';

/** The instrumentation scope of the tracer and meter. */
export const SCOPE = 'unified-gateway';
