export { Gateway, Gateway as default } from './client.js';
export type { GatewayOptions } from './client.js';
export type { RequestOptions } from './core/request.js';
export type { AttemptInfo, FailoverInfo, GatewayHooks, ResponseInfo, RetryInfo } from './core/hooks.js';
export { Stream } from './core/streaming.js';
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
export { ChatCompletionStream } from './resources/chat/chat-completion-stream.js';
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
