export { Gateway, Gateway as default } from './client.js';
export type { GatewayOptions } from './client.js';
export type { RequestOptions } from './core/request.js';
export type { AttemptInfo, FailoverInfo, GatewayHooks, ResponseInfo, RetryInfo } from './core/hooks.js';
// Stream classes are exported as types: their code loads with the first stream, and a value
// export here would put it in every bundle.
export type { Stream } from './core/streaming.js';
export {
  GatewayError,
  APIError,
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  ValidationError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InsufficientQuotaError,
  InternalServerError,
  ServiceUnavailableError,
} from './core/errors.js';
export { toFile } from './core/to-file.js';
export type { ReadStreamLike, ToFileOptions, Uploadable } from './core/uploads.js';
export type { ChatCompletionStream } from './resources/chat/chat-completion-stream.js';
export type { Chat } from './resources/chat/index.js';
export type { Completions as ChatCompletions } from './resources/chat/completions.js';
export type {
  ChatCompletion,
  ChatCompletionAssistantMessageParam,
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
  ChatCompletionMessageToolCall,
  ChatCompletionSystemMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
  ChatCompletionToolMessageParam,
  ChatCompletionUserMessageParam,
  CompletionUsage,
  ResponseFormat,
} from './resources/chat/completions.types.js';
export type { Model, ModelList, Models } from './resources/models.js';
export type { Audio } from './resources/audio/index.js';
export type { Transcription, TranscriptionCreateParams, Transcriptions, TranscriptionVerbose } from './resources/audio/transcriptions.js';
export type {
  Completion,
  CompletionChoice,
  CompletionCreateParams,
  CompletionCreateParamsBase,
  CompletionCreateParamsNonStreaming,
  CompletionCreateParamsStreaming,
  Completions,
} from './resources/completions.js';
export type { CreateEmbeddingResponse, Embedding, EmbeddingCreateParams, Embeddings } from './resources/embeddings.js';
export type { ImageModel, ImageSize, ImageSizeFor, KnownImageModel } from './resources/image-sizes.js';
export type { Image, ImageEditParams, ImageGenerateParams, Images, ImagesResponse } from './resources/images.js';
export type { ResponseStream } from './resources/response-stream.js';
export type { Responses } from './resources/responses.js';
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
} from './resources/responses.types.js';
export { VideoTaskFailedError, VideoTaskNotFoundError, VIDEO_TASK_TTL_MS, videoPrices, videoTaskState } from './resources/videos.js';
export type { VideoTaskState } from './resources/videos.js';
export type { Videos } from './resources/videos.js';
export type { VideoCreateParams, VideoDuration, VideoModel, VideoTask, VideoTaskStatus, VideoWaitOptions } from './resources/videos.types.js';
