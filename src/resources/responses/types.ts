import type { ChatCompletionContentPartImage } from '../chat/completions/types.js';
import type { ModelId } from '../../core/model-catalog.js';

/** A message in `input`: text, or parts with text and images. */
export interface ResponseInputMessage {
  type?: 'message' | undefined;
  role: 'user' | 'assistant' | 'system' | 'developer';
  content: string | Array<{ type: 'input_text'; text: string } | { type: 'input_image'; image_url: string; detail?: 'auto' | 'low' | 'high' | undefined } | ChatCompletionContentPartImage>;
}

/** The result of a function call the model asked for, sent back in `input`. */
export interface ResponseFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

export type ResponseInputItem = ResponseInputMessage | ResponseFunctionCallOutput;

/** A function tool for the responses endpoint (flat, unlike chat's `{ function: {...} }`). */
export interface ResponseFunctionTool {
  type: 'function';
  name: string;
  description?: string | undefined;
  parameters?: Record<string, unknown> | undefined;
  strict?: boolean | undefined;
}

/** Fields shared by streaming and non-streaming `responses.create`. */
export interface ResponseCreateParamsBase {
  model: ModelId;
  /** A prompt, or a list of messages and tool outputs. */
  input: string | ResponseInputItem[];
  /** System-level instructions. */
  instructions?: string | null | undefined;
  /** Integer >= 1. */
  max_output_tokens?: number | null | undefined;
  /** 0 to 2. */
  temperature?: number | null | undefined;
  /** 0 to 1. */
  top_p?: number | null | undefined;
  tools?: ResponseFunctionTool[] | undefined;
  tool_choice?: 'none' | 'auto' | 'required' | { type: 'function'; name: string } | undefined;
  /** Continue from a stored response. */
  previous_response_id?: string | null | undefined;
  text?: { format?: { type: 'text' } | { type: 'json_object' } | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean | undefined } | undefined } | undefined;
  metadata?: Record<string, string> | null | undefined;
  store?: boolean | null | undefined;
  user?: string | undefined;
  stream?: boolean | null | undefined;
}

export interface ResponseCreateParamsNonStreaming extends ResponseCreateParamsBase {
  stream?: false | null | undefined;
}

export interface ResponseCreateParamsStreaming extends ResponseCreateParamsBase {
  stream: true;
}

export type ResponseCreateParams = ResponseCreateParamsNonStreaming | ResponseCreateParamsStreaming;

/** Text the model produced. */
export interface ResponseOutputText {
  type: 'output_text';
  text: string;
  annotations?: unknown[] | undefined;
}

/** An assistant message in `output`. */
export interface ResponseOutputMessage {
  type: 'message';
  id: string;
  role: 'assistant';
  status: 'in_progress' | 'completed' | 'incomplete';
  content: Array<ResponseOutputText | { type: 'refusal'; refusal: string }>;
}

/** A function call in `output`; answer it with a `function_call_output` input item. */
export interface ResponseFunctionCall {
  type: 'function_call';
  id?: string | undefined;
  call_id: string;
  name: string;
  /** JSON text written by the model. */
  arguments: string;
  status?: 'in_progress' | 'completed' | 'incomplete' | undefined;
}

export type ResponseOutputItem = ResponseOutputMessage | ResponseFunctionCall | { type: string & {}; [key: string]: unknown };

/** POST /responses result. */
export interface Response {
  id: string;
  object: 'response';
  /** Unix seconds. */
  created_at: number;
  status: 'completed' | 'failed' | 'in_progress' | 'incomplete' | 'queued' | 'cancelled' | (string & {});
  model: string;
  output: ResponseOutputItem[];
  /** All `output_text` of the output, joined; filled in by the SDK when the server omits it. */
  output_text: string;
  usage?: { input_tokens: number; output_tokens: number; total_tokens: number } | null | undefined;
  error?: { code: string; message: string } | null | undefined;
  incomplete_details?: { reason: string } | null | undefined;
}

interface EventBase {
  sequence_number?: number | undefined;
}

/** One server-sent event of a streamed response. Unknown event types arrive as `{ type, ... }`. */
export type ResponseStreamEvent =
  | (EventBase & { type: 'response.created' | 'response.in_progress' | 'response.completed' | 'response.failed' | 'response.incomplete'; response: Response })
  | (EventBase & { type: 'response.output_item.added' | 'response.output_item.done'; output_index: number; item: ResponseOutputItem })
  | (EventBase & { type: 'response.output_text.delta'; item_id: string; output_index: number; content_index: number; delta: string })
  | (EventBase & { type: 'response.output_text.done'; item_id: string; output_index: number; content_index: number; text: string })
  | (EventBase & { type: 'response.function_call_arguments.delta'; item_id: string; output_index: number; delta: string })
  | (EventBase & { type: 'response.function_call_arguments.done'; item_id: string; output_index: number; arguments: string })
  | (EventBase & { type: 'error'; code: string | null; message: string; param: string | null });
