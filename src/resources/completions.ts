import type { RequestOptions } from '../core/request.js';
import { APIResource } from '../core/resource.js';
import type { Stream } from '../core/streaming.js';
import type { CompletionUsage } from './chat/completions.types.js';
import { lazy } from '../internal/lazy.js';

/** The schema (and zod) load with the first call; see core/resource.ts. */
const loadSchema = lazy(() => import('./completions.schema.js'));

/** `client.completions`: legacy text completions (chat completions are preferred). */
export class Completions extends APIResource {
  /**
   * Creates a text completion; with `stream: true` resolves to a `Stream<Completion>`.
   * @example
   * const res = await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say this is a test' });
   * console.log(res.choices[0]?.text);
   */
  create(body: CompletionCreateParamsNonStreaming, options?: RequestOptions): Promise<Completion>;
  create(body: CompletionCreateParamsStreaming, options?: RequestOptions): Promise<Stream<Completion>>;
  create(body: CompletionCreateParams, options?: RequestOptions): Promise<Completion | Stream<Completion>>;
  async create(body: CompletionCreateParams, options?: RequestOptions): Promise<Completion | Stream<Completion>> {
    await this._check(loadSchema, body);
    if (!body.stream) return this._post<Completion>('completions', body, options);
    const { Stream } = await import('../core/streaming.js');
    return this._stream('completions', body, options, Stream<Completion>);
  }
}

/** Fields shared by streaming and non-streaming legacy completions. */
export interface CompletionCreateParamsBase {
  model: string;
  /** Text, texts, or token arrays. */
  prompt: string | string[] | number[] | number[][];
  /** Integer >= 0. @default 16 */
  max_tokens?: number | null;
  /** 0 to 2. @default 1 */
  temperature?: number | null;
  /** 0 to 1. */
  top_p?: number | null;
  /** Integer >= 1. @default 1 */
  n?: number | null;
  stop?: string | string[] | null;
  suffix?: string | null;
  echo?: boolean | null;
  /** Integer 0 to 5: log probabilities of the most likely tokens. */
  logprobs?: number | null;
  best_of?: number | null;
  presence_penalty?: number | null;
  frequency_penalty?: number | null;
  logit_bias?: Record<string, number> | null;
  seed?: number | null;
  user?: string;
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean } | null;
}

export interface CompletionCreateParamsNonStreaming extends CompletionCreateParamsBase {
  stream?: false | null;
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
  usage?: CompletionUsage;
  system_fingerprint?: string;
}
