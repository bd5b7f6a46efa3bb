import type { CompletionUsage } from '../chat/completions/types.js';
import type { ModelId } from '../../core/model-catalog.js';

/** Fields shared by streaming and non-streaming legacy completions. */
export interface CompletionCreateParamsBase {
  model: ModelId;
  /** Text, texts, or token arrays. */
  prompt: string | string[] | number[] | number[][];
  /** Integer >= 0. @default 16 */
  max_tokens?: number | null | undefined;
  /** 0 to 2. @default 1 */
  temperature?: number | null | undefined;
  /** 0 to 1. */
  top_p?: number | null | undefined;
  /** Integer >= 1. @default 1 */
  n?: number | null | undefined;
  stop?: string | string[] | null | undefined;
  suffix?: string | null | undefined;
  echo?: boolean | null | undefined;
  /** Integer 0 to 5: log probabilities of the most likely tokens. */
  logprobs?: number | null | undefined;
  best_of?: number | null | undefined;
  presence_penalty?: number | null | undefined;
  frequency_penalty?: number | null | undefined;
  logit_bias?: Record<string, number> | null | undefined;
  seed?: number | null | undefined;
  user?: string | undefined;
  stream?: boolean | null | undefined;
  stream_options?: { include_usage?: boolean | undefined } | null | undefined;
}

export interface CompletionCreateParamsNonStreaming extends CompletionCreateParamsBase {
  stream?: false | null | undefined;
}

export interface CompletionCreateParamsStreaming extends CompletionCreateParamsBase {
  stream: true;
}

export type CompletionCreateParams = CompletionCreateParamsNonStreaming | CompletionCreateParamsStreaming;

export interface CompletionChoice {
  index: number;
  text: string;
  finish_reason: 'stop' | 'length' | 'content_filter' | (string & {}) | null;
  logprobs: unknown;
}

/** POST /completions result, and each frame of its stream. */
export interface Completion {
  id: string;
  object: 'text_completion';
  created: number;
  model: string;
  choices: CompletionChoice[];
  usage?: CompletionUsage | undefined;
  system_fingerprint?: string | undefined;
}
