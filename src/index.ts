export { Gateway, Gateway as default } from './client.js';
export type { GatewayOptions } from './client.js';
export type { DownloadOptions, DownloadProgress, FetchOptions, ReasoningField, ReasoningRule, ReasoningSend, RequestOptions } from './core/types.js';
export type { AttemptObserver, CallEnd, CallObserver, StreamEnd, Telemetry, TelemetryRedactor, TelemetryRequest } from './core/telemetry.js';
export { APIPromise } from './core/api-promise.js';
export type { APIResult } from './core/api-promise.js';
export type { Logger, LogLevel } from './core/logger.js';
export type { ApiKeySource, RetryOptions } from './core/options.js';
export type { AttemptInfo, CacheInfo, CacheOutcome, FailoverInfo, FleetInfo, GatewayHooks, ModelFallbackInfo, ResponseInfo, RetryInfo } from './core/hooks.js';
// Stream classes are exported as types: the client makes streams, never a caller's `new`.
export type { Stream } from './core/streams/stream.js';
export { streamFromReadable, type StreamFromReadableOptions } from './core/streams/stream-from-readable.js';
export { memoryStore, type MemoryStoreOptions } from './core/store/memory-store.js';
export type { Store } from './core/store/store.js';
export type { Limits } from './core/types.js';
export type { CacheOptions } from './core/cache/cache-state.js';
export type { ModelEndpoint, ModelParamRules, ModelRule, ParamRule, RuleSource } from './core/adapt/model-rules.js';
export type { AdaptInfo } from './core/adapt/adapt.js';
export type { Amount, Balance, Budget, BudgetWindow, Cost, CostEvent, CostOption, CostTags, SpendReport } from './core/cost/cost.js';
export {
  GatewayError,
  APIError,
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  StreamInterruptedError,
  ValidationError,
  BadRequestError,
  UnsupportedParameterError,
  BudgetExceededError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InsufficientQuotaError,
  InternalServerError,
  ServiceUnavailableError,
  ParseError,
} from './core/errors.js';
export { EmbeddingBatchError, ToolRunLimitError } from './resources/errors.js';
export { toFile } from './core/uploads/to-file.js';
export type { ReadStreamLike, ToFileOptions, Uploadable } from './core/uploads/uploads.js';
export type { ChatCompletionStream } from './resources/chat/completions/stream.js';
export { chatStreamFromReadable } from './resources/chat/completions/chat-stream-from-readable.js';
export { defineTool, responseFormat } from './resources/chat/completions/structured.js';
export { reasoningText } from './resources/chat/completions/reasoning-fields.js';
export type { DefinedTool, ResponseFormatJSONSchema, ResponseFormatOptions, ToolDefinition } from './resources/chat/completions/structured.js';
export type { InferInput, InferOutput, StandardJSONSchemaConverter, StandardSchemaV1 } from './resources/chat/completions/standard-schema.js';
export type {
  ChatCompletionParseParams,
  ChatCompletionRunToolsParams,
  DeepPartial,
  ParsedChatCompletion,
  ParsedChatCompletionMessage,
  ParsedChatCompletionStream,
  ParsedChoice,
  ParsedFunctionToolCall,
  RunToolsOptions,
  ToolCallResult,
  ToolRunResult,
  ToolRunStep,
} from './resources/chat/completions/structured.types.js';
export type { Chat } from './resources/chat/index.js';
export type { ChatCompletions } from './resources/chat/completions/index.js';
export type {
  ChatCompletion,
  ChatCompletionAssistantMessageParam,
  ChatCompletionCacheControl,
  ChatCompletionChoice,
  ChatCompletionChunk,
  ChatCompletionChunkChoice,
  ChatCompletionChunkToolCall,
  ChatCompletionContentPart,
  ChatCompletionContentPartImage,
  ChatCompletionContentPartInputAudio,
  ChatCompletionContentPartText,
  ChatCompletionCreateParams,
  ChatCompletionCreateParamsBase,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionDeveloperMessageParam,
  ChatCompletionFinishReason,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  ChatCompletionReasoningDetail,
  ChatCompletionReasoningDetailBase,
  ChatCompletionReasoningDetailEncrypted,
  ChatCompletionReasoningDetailSummary,
  ChatCompletionReasoningDetailText,
  ChatCompletionReasoningFields,
  ChatCompletionThinkingBlock,
  ChatCompletionToolCallExtraContent,
  ChatCompletionMessageToolCall,
  ChatCompletionSystemMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
  ChatCompletionToolMessageParam,
  ChatCompletionUserMessageParam,
  CompletionUsage,
  ResponseFormat,
  ToolRunContext,
} from './resources/chat/completions/types.js';
export type { Models } from './resources/models/index.js';
// ModelCatalog is exported from the root so that `declare module 'unified-gateway'` can fill it in.
export type { ModelCatalog, ModelId } from './core/model-catalog.js';
export type { Model, ModelList } from './resources/models/types.js';
export type { Audio } from './resources/audio/index.js';
export type { Transcriptions } from './resources/audio/transcriptions/index.js';
export type { Transcription, TranscriptionCreateParams, TranscriptionVerbose } from './resources/audio/transcriptions/types.js';
export type { Completions } from './resources/completions/index.js';
export type {
  Completion,
  CompletionChoice,
  CompletionCreateParams,
  CompletionCreateParamsBase,
  CompletionCreateParamsNonStreaming,
  CompletionCreateParamsStreaming,
} from './resources/completions/types.js';
export type { Embeddings } from './resources/embeddings/index.js';
export type {
  CreateEmbeddingResponse,
  Embedding,
  EmbeddingCreateManyOptions,
  EmbeddingCreateManyParams,
  EmbeddingCreateParams,
  EmbeddingIterateOptions,
  EmbeddingIterateParams,
  EmbeddingIterateProgress,
  EmbeddingProgress,
} from './resources/embeddings/types.js';
export type { ImageModel, ImageSize, ImageSizeFor, KnownImageModel } from './resources/images/sizes.js';
export type { Images } from './resources/images/index.js';
export type { Image, ImageEditParams, ImageGenerateParams, ImagesResponse } from './resources/images/types.js';
export type { ResponseStream } from './resources/responses/stream.js';
export type { Responses } from './resources/responses/index.js';
export type {
  Response,
  ResponseCreateParams,
  ResponseCreateParamsBase,
  ResponseCreateParamsNonStreaming,
  ResponseCreateParamsStreaming,
  ResponseFunctionCall,
  ResponseFunctionCallOutput,
  ResponseFunctionTool,
  ResponseInputItem,
  ResponseInputMessage,
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseOutputText,
  ResponseStreamEvent,
} from './resources/responses/types.js';
export { VideoTaskFailedError, VideoTaskNotFoundError, VIDEO_TASK_TTL_MS, videoPrices, videoTaskState } from './resources/videos/index.js';
export type { VideoTaskState } from './resources/videos/index.js';
export type { Videos } from './resources/videos/index.js';
export type { VideoDownloadOptions, VideoCreateParams, VideoDuration, VideoModel, VideoTask, VideoTaskStatus, VideoWaitOptions } from './resources/videos/types.js';
