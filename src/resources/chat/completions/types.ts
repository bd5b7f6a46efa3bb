import type { ModelId } from '../../../core/model-catalog.js';

/** Token counts for one request. */
export interface CompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number | undefined; audio_tokens?: number | undefined } | null | undefined;
  completion_tokens_details?: { reasoning_tokens?: number | undefined; audio_tokens?: number | undefined } | null | undefined;
}

/**
 * A prompt-caching hint: the prompt up to and including this part may be cached, as
 * Anthropic-style vendors take it behind an OpenAI-compatible gateway. Sent unchanged; a
 * gateway that drops it shows as `usage.prompt_tokens_details.cached_tokens` staying 0
 * turn after turn (docs/chat.md#prompt-caching).
 * @example { type: 'ephemeral', ttl: '1h' }
 */
export interface ChatCompletionCacheControl {
  /** The one kind of cache entry vendors take. */
  type: 'ephemeral';
  /** How long the entry lives, where the vendor lets you choose (Anthropic: `'5m'`, the default, or `'1h'`). */
  ttl?: '5m' | '1h' | (string & {}) | undefined;
}

/** `{ type: 'text', text }` */
export interface ChatCompletionContentPartText {
  type: 'text';
  text: string;
  /** Cache the prompt up to here: see {@link ChatCompletionCacheControl}. */
  cache_control?: ChatCompletionCacheControl | undefined;
}

/** `{ type: 'image_url', image_url: { url } }`: an https URL or a `data:image/...;base64,` URL. Models with vision only. */
export interface ChatCompletionContentPartImage {
  type: 'image_url';
  image_url: {
    url: string;
    /** @default 'auto' */
    detail?: 'auto' | 'low' | 'high' | undefined;
  };
  /** Cache the prompt up to here: see {@link ChatCompletionCacheControl}. */
  cache_control?: ChatCompletionCacheControl | undefined;
}

/** Audio input for models that accept it. */
export interface ChatCompletionContentPartInputAudio {
  type: 'input_audio';
  input_audio: { data: string; format: 'wav' | 'mp3' };
}

export type ChatCompletionContentPart = ChatCompletionContentPartText | ChatCompletionContentPartImage | ChatCompletionContentPartInputAudio;

export interface ChatCompletionSystemMessageParam {
  role: 'system';
  content: string | ChatCompletionContentPartText[];
  name?: string | undefined;
}

/** Newer name for system instructions; some vendors accept it. */
export interface ChatCompletionDeveloperMessageParam {
  role: 'developer';
  content: string | ChatCompletionContentPartText[];
  name?: string | undefined;
}

export interface ChatCompletionUserMessageParam {
  role: 'user';
  content: string | ChatCompletionContentPart[];
  name?: string | undefined;
}

/** A tool call the model made, as sent back in history. */
export interface ChatCompletionMessageToolCall {
  id: string;
  type: 'function';
  function: {
    name: string;
    /** JSON text produced by the model; parse it and validate before use. */
    arguments: string;
  };
  /**
   * Vendor data that must go back with the call, as received: Gemini 3 puts its thought
   * signature here (`extra_content.google.thought_signature`) and answers 400 without it.
   */
  extra_content?: ChatCompletionToolCallExtraContent | undefined;
  /**
   * Only on a `StreamInterruptedError`'s `partial`: the stream was cut inside this
   * call's arguments (its choice has no `finish_reason` and `arguments` is not valid JSON).
   * Do not run it. Added by the SDK, so never sent: a request leaves it out.
   */
  incomplete?: true | undefined;
}

/** A tool call's vendor data (see {@link ChatCompletionMessageToolCall.extra_content}): Gemini's thought signature, and whatever else a vendor puts there. */
export interface ChatCompletionToolCallExtraContent {
  google?: { thought_signature?: string | undefined; [key: string]: unknown } | undefined;
  [key: string]: unknown;
}

/** What every entry of `reasoning_details` (OpenRouter) carries besides its content. */
export interface ChatCompletionReasoningDetailBase {
  /** The vendor's id for the entry, or null. */
  id?: string | null | undefined;
  /** Whose format the entry is in, e.g. `'anthropic-claude-v1'`, `'openai-responses-v1'`, `'google-gemini-v1'`. */
  format?: string | undefined;
  /** Its place in the array; a stream's pieces of one entry share it. */
  index?: number | undefined;
}

/** Reasoning text in `reasoning_details`; Claude's carries a `signature`. */
export interface ChatCompletionReasoningDetailText extends ChatCompletionReasoningDetailBase {
  type: 'reasoning.text';
  text?: string | null | undefined;
  signature?: string | null | undefined;
}

/** A summary of the reasoning in `reasoning_details` (OpenAI's o-series, gpt-5). */
export interface ChatCompletionReasoningDetailSummary extends ChatCompletionReasoningDetailBase {
  type: 'reasoning.summary';
  summary?: string | null | undefined;
}

/** Reasoning the vendor encrypted or redacted, in `reasoning_details`: only its `data` goes back. */
export interface ChatCompletionReasoningDetailEncrypted extends ChatCompletionReasoningDetailBase {
  type: 'reasoning.encrypted';
  data?: string | null | undefined;
}

/**
 * One entry of OpenRouter's `reasoning_details`: it must go back unmodified, in order, for
 * Claude and Gemini 3 tool loops (https://openrouter.ai/docs/use-cases/reasoning-tokens).
 */
export type ChatCompletionReasoningDetail = ChatCompletionReasoningDetailText | ChatCompletionReasoningDetailSummary | ChatCompletionReasoningDetailEncrypted;

/**
 * One of the Anthropic thinking blocks LiteLLM-style gateways put in `thinking_blocks`: they
 * go back with their `signature` for Claude's tool loops with thinking.
 */
export type ChatCompletionThinkingBlock =
  | { type: 'thinking'; thinking: string; signature?: string | null | undefined }
  | { type: 'redacted_thinking'; data: string };

/**
 * The reasoning fields a reply can carry, each kept as the vendor sent it (docs/chat.md#reasoning-models).
 * Read the text with `reasoningText()`, whichever field it came in.
 */
export interface ChatCompletionReasoningFields {
  /** DeepSeek, Qwen, Kimi, GLM, MiMo (and LiteLLM beside `thinking_blocks`). */
  reasoning_content?: string | null | undefined;
  /** Groq, vLLM, Together, OpenRouter (beside `reasoning_details`). */
  reasoning?: string | null | undefined;
  /** OpenRouter's structured reasoning: see {@link ChatCompletionReasoningDetail}. */
  reasoning_details?: ChatCompletionReasoningDetail[] | undefined;
  /** LiteLLM's Anthropic thinking blocks: see {@link ChatCompletionThinkingBlock}. */
  thinking_blocks?: ChatCompletionThinkingBlock[] | undefined;
}

/**
 * An assistant turn of the history. Its reasoning fields ({@link ChatCompletionReasoningFields})
 * go back as the reply carried them, for the vendors that want them: `runTools` keeps or
 * leaves out each as the model's rule says (docs/chat.md#reasoning-models); a reply's message
 * pushed as it is carries them all.
 */
export interface ChatCompletionAssistantMessageParam extends ChatCompletionReasoningFields {
  role: 'assistant';
  /** May be null when the message only carries `tool_calls`. */
  content?: string | ChatCompletionContentPartText[] | null | undefined;
  name?: string | undefined;
  refusal?: string | null | undefined;
  tool_calls?: ChatCompletionMessageToolCall[] | undefined;
}

/** The result of a tool call, answering the assistant's `tool_calls[i].id`. */
export interface ChatCompletionToolMessageParam {
  role: 'tool';
  content: string | ChatCompletionContentPartText[];
  tool_call_id: string;
}

export type ChatCompletionMessageParam =
  | ChatCompletionSystemMessageParam
  | ChatCompletionDeveloperMessageParam
  | ChatCompletionUserMessageParam
  | ChatCompletionAssistantMessageParam
  | ChatCompletionToolMessageParam;

/** A function the model may call. `parameters` is a JSON Schema object. */
export interface ChatCompletionTool {
  type: 'function';
  function: {
    name: string;
    description?: string | undefined;
    parameters?: Record<string, unknown> | undefined;
    strict?: boolean | null | undefined;
  };
}

/** `'none'`, `'auto'`, `'required'`, or a named function to force. */
export type ChatCompletionToolChoiceOption = 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; description?: string | undefined; schema?: Record<string, unknown> | undefined; strict?: boolean | null | undefined } };

/** Fields shared by streaming and non-streaming chat requests. */
export interface ChatCompletionCreateParamsBase {
  /** A model id from `client.models.list()`, e.g. `gpt-4o-mini`; see {@link ModelId}. */
  model: ModelId;
  /** The conversation so far; at least one message. */
  messages: ChatCompletionMessageParam[];
  /** 0 to 2. @default 1 */
  temperature?: number | null | undefined;
  /** 0 to 1. */
  top_p?: number | null | undefined;
  /** Integer >= 1. */
  max_tokens?: number | null | undefined;
  /** Newer spelling of `max_tokens` used by some models. Integer >= 1. */
  max_completion_tokens?: number | null | undefined;
  /** How many choices to generate. Integer >= 1. @default 1 */
  n?: number | null | undefined;
  /** Up to 4 sequences where generation stops. */
  stop?: string | string[] | null | undefined;
  /** Best-effort determinism. */
  seed?: number | null | undefined;
  /** -2 to 2. */
  presence_penalty?: number | null | undefined;
  /** -2 to 2. */
  frequency_penalty?: number | null | undefined;
  /** Map of token id to bias (-100 to 100). */
  logit_bias?: Record<string, number> | null | undefined;
  logprobs?: boolean | null | undefined;
  top_logprobs?: number | null | undefined;
  tools?: ChatCompletionTool[] | undefined;
  tool_choice?: ChatCompletionToolChoiceOption | undefined;
  parallel_tool_calls?: boolean | undefined;
  response_format?: ResponseFormat | undefined;
  /** An id for the end user, for abuse monitoring. */
  user?: string | undefined;
  stream?: boolean | null | undefined;
  /** With `stream: true`, `{ include_usage: true }` adds a final chunk with `usage`. */
  stream_options?: { include_usage?: boolean | undefined } | null | undefined;
}

export interface ChatCompletionCreateParamsNonStreaming extends ChatCompletionCreateParamsBase {
  stream?: false | null | undefined;
}

export interface ChatCompletionCreateParamsStreaming extends ChatCompletionCreateParamsBase {
  stream: true;
}

export type ChatCompletionCreateParams = ChatCompletionCreateParamsNonStreaming | ChatCompletionCreateParamsStreaming;

/** Why generation stopped. */
export type ChatCompletionFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call' | (string & {});

/**
 * The assistant's reply. Its reasoning is in the field its vendor used, as sent
 * ({@link ChatCompletionReasoningFields}; `reasoningText(message)` reads any of them), and the
 * message can be pushed back into `messages` as it is.
 */
export interface ChatCompletionMessage extends ChatCompletionReasoningFields {
  role: 'assistant';
  content: string | null;
  refusal?: string | null | undefined;
  tool_calls?: ChatCompletionMessageToolCall[] | undefined;
}

export interface ChatCompletionChoice {
  index: number;
  message: ChatCompletionMessage;
  finish_reason: ChatCompletionFinishReason | null;
  logprobs?: unknown | undefined;
}

/** POST /chat/completions result. */
export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: ChatCompletionChoice[];
  usage?: CompletionUsage | undefined;
  system_fingerprint?: string | null | undefined;
}

/**
 * A fragment of a tool call inside a stream; fragments with the same `index` belong together.
 * A fragment sent without `index` (Gemini's OpenAI-compatible endpoint) is given the index
 * of the call it belongs to before you see it: the call with its `id`, a new call for a new
 * `id`, else the last call (docs/streaming.md).
 */
export interface ChatCompletionChunkToolCall {
  index: number;
  id?: string | undefined;
  type?: 'function' | undefined;
  function?: { name?: string | undefined; arguments?: string | undefined } | undefined;
  /** See {@link ChatCompletionMessageToolCall.extra_content}. */
  extra_content?: ChatCompletionToolCallExtraContent | undefined;
}

export interface ChatCompletionChunkChoice {
  index: number;
  /**
   * The pieces of the reply; reasoning in the field its vendor used ({@link ChatCompletionReasoningFields}:
   * text pieces, and `reasoning_details` / `thinking_blocks` pieces that `finalChatCompletion()` merges).
   */
  delta: ChatCompletionReasoningFields & {
    role?: 'assistant' | undefined;
    content?: string | null | undefined;
    refusal?: string | null | undefined;
    tool_calls?: ChatCompletionChunkToolCall[] | undefined;
  };
  finish_reason: ChatCompletionFinishReason | null;
  logprobs?: unknown | undefined;
}

/** One SSE frame of a streamed chat completion. */
export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: ChatCompletionChunkChoice[];
  /** Sent on the last chunk when `stream_options.include_usage` is true. */
  usage?: CompletionUsage | null | undefined;
  system_fingerprint?: string | null | undefined;
}

/** What a tool's `run` is given besides its arguments. */
export interface ToolRunContext {
  /** The call being answered. */
  call: ChatCompletionMessageToolCall;
  /** Aborts when the run is aborted (`runTools(…, { signal })`). */
  signal: AbortSignal;
}
