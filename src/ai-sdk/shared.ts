import type { JSONObject, JSONValue, SharedV3ProviderMetadata, SharedV3ProviderOptions } from '@ai-sdk/provider';
import { checkCacheMode } from '../core/check.js';
import { isRecord } from '../internal/is-record.js';
import type { ChatCompletionReasoningFields, Cost, RequestOptions } from '../index.js';
import { ReasoningAccumulator } from '../resources/chat/completions/reasoning-fields.js';

/** The key of `providerOptions` this provider reads, and of the `providerMetadata` it writes. */
export const PROVIDER_OPTIONS_KEY = 'unifiedGateway';

/** Request options a caller may set per call under `providerOptions.unifiedGateway`; the rest goes into the body. */
const requestOptionKeys = ['fallbackModels', 'timeout', 'idleTimeout', 'totalTimeout', 'maxRetries', 'cache'] as const;

/** The caller's `providerOptions.unifiedGateway`, split into body fields and request options. */
export function splitProviderOptions(providerOptions: Record<string, unknown> | undefined): { body: Record<string, unknown>; request: RequestOptions } {
  const given = providerOptions?.[PROVIDER_OPTIONS_KEY];
  const body: Record<string, unknown> = {};
  const request: Record<string, unknown> = {};
  if (given && typeof given === 'object') {
    for (const [key, value] of Object.entries(given)) {
      if (value === undefined) continue;
      // Checked here to name the option as the caller wrote it; the client checks the others under their own names.
      if (key === 'cache') checkCacheMode(`providerOptions.${PROVIDER_OPTIONS_KEY}.cache`, value);
      if ((requestOptionKeys as readonly string[]).includes(key)) request[key] = value;
      else body[key] = value;
    }
  }
  return { body, request: request as RequestOptions };
}

/** The AI SDK's per-call options as the client's request options. */
export function requestOptions(options: { abortSignal?: AbortSignal | undefined; headers?: Record<string, string | undefined> | undefined }, extra: RequestOptions): RequestOptions {
  const headers = definedHeaders(options.headers);
  return { ...extra, ...(options.abortSignal ? { signal: options.abortSignal } : {}), ...(headers ? { headers } : {}) };
}

function definedHeaders(headers: Record<string, string | undefined> | undefined): Record<string, string> | undefined {
  if (!headers) return undefined;
  const defined = Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return defined.length ? Object.fromEntries(defined) : undefined;
}

/**
 * A tool call's vendor data (`extra_content`: Gemini's thought signature) as the tool-call
 * part's provider metadata; the AI SDK hands it back on the call in the next step's prompt
 * (as `providerOptions`), where {@link extraContentOf} reads it. With it, the model that wrote
 * the call (`model`): the data goes back to that model only ({@link writerOf}).
 */
export function toolCallMetadata(extra: Record<string, unknown> | undefined, model: string): { providerMetadata: SharedV3ProviderMetadata } | undefined {
  return extra ? { providerMetadata: { [PROVIDER_OPTIONS_KEY]: { extra_content: extra as JSONObject, model } } } : undefined;
}

/** The `extra_content` {@link toolCallMetadata} put on a tool call, from the prompt's part. */
export function extraContentOf(providerOptions: SharedV3ProviderOptions | undefined): Record<string, unknown> | undefined {
  const extra = providerOptions?.[PROVIDER_OPTIONS_KEY]?.['extra_content'];
  return extra && typeof extra === 'object' && !Array.isArray(extra) ? extra : undefined;
}

/**
 * A reply's reasoning fields (or those of one streamed reasoning block) as a reasoning part's
 * provider metadata, so that they go back as they came: the field the text came in
 * (`reasoningField`), `reasoning_details` / `thinking_blocks` whole, and the model that wrote
 * them (`model`: they go back to it only, see {@link writerOf}). The AI SDK hands it
 * back on the part in the next step's prompt (as `providerOptions`), where
 * {@link reasoningFieldsOf} reads it. Undefined when there were none.
 */
export function reasoningMetadata(fields: ChatCompletionReasoningFields, model: string): SharedV3ProviderMetadata | undefined {
  const meta: JSONObject = {};
  if (typeof fields.reasoning_content === 'string' && fields.reasoning_content) meta.reasoningField = 'reasoning_content';
  else if (typeof fields.reasoning === 'string' && fields.reasoning) meta.reasoningField = 'reasoning';
  if (Array.isArray(fields.reasoning_details)) meta.reasoning_details = fields.reasoning_details as unknown as JSONValue;
  if (Array.isArray(fields.thinking_blocks)) meta.thinking_blocks = fields.thinking_blocks as unknown as JSONValue;
  return Object.keys(meta).length ? { [PROVIDER_OPTIONS_KEY]: { ...meta, model } } : undefined;
}

/**
 * The model that wrote a prompt's part, as {@link reasoningMetadata} and {@link toolCallMetadata}
 * recorded it; undefined for a part without it (from 0.5's first releases, another provider,
 * or written by hand), which is taken as the model's own.
 */
export function writerOf(providerOptions: SharedV3ProviderOptions | undefined): string | undefined {
  const model = providerOptions?.[PROVIDER_OPTIONS_KEY]?.['model'];
  return typeof model === 'string' ? model : undefined;
}

/**
 * The reasoning fields an assistant turn of a prompt carries back, from its reasoning parts:
 * each part's text in the field {@link reasoningMetadata} recorded, `reasoning_details` and
 * `thinking_blocks` merged as a stream's are. A part without this provider's metadata (from
 * another provider, or written by hand) is taken as `reasoning_content`, as 0.4 sent it.
 */
export function reasoningFieldsOf(parts: ReadonlyArray<{ text: string; providerOptions?: SharedV3ProviderOptions | undefined }>): ChatCompletionReasoningFields {
  const fields = new ReasoningAccumulator();
  for (const part of parts) {
    const meta = part.providerOptions?.[PROVIDER_OPTIONS_KEY];
    if (!isRecord(meta)) {
      fields.add({ reasoning_content: part.text });
      continue;
    }
    const field = meta.reasoningField === 'reasoning' || meta.reasoningField === 'reasoning_content' ? meta.reasoningField : undefined;
    fields.add({ ...(field ? { [field]: part.text } : {}), reasoning_details: meta.reasoning_details as ChatCompletionReasoningFields['reasoning_details'], thinking_blocks: meta.thinking_blocks as ChatCompletionReasoningFields['thinking_blocks'] });
  }
  return fields.result();
}

/**
 * A call's cost (the client's `cost` option, docs/cost.md) as `providerMetadata.unifiedGateway.cost`:
 * `{ quota, usd, source }`, `usd` null where the gateway counts in tokens. Undefined when the
 * call was not priced (a client without `cost`, a gateway that publishes no prices, a model
 * its table lacks), so the metadata is as before.
 */
export function costMetadata(cost: Cost | null | undefined): { cost: JSONObject } | undefined {
  return cost ? { cost: { quota: cost.quota, usd: cost.usd, source: cost.source } } : undefined;
}

/**
 * A stream's cost, once it has ended (read to its end, left or cut: the client's `cost()`
 * resolves then, to null when unpriced); null from a client of an older copy of the package,
 * which has no `cost()`, and when it fails.
 */
export function streamCost(stream: { cost?: () => Promise<Cost | null> }): Promise<Cost | null> {
  return typeof stream.cost === 'function' ? stream.cost().catch(() => null) : Promise.resolve(null);
}

/** Response headers as the specification carries them. */
export function headersOf(response: Response): Record<string, string> {
  return Object.fromEntries(response.headers);
}

/** Bytes or base64 text as base64. */
export function toBase64(data: Uint8Array | string): string {
  if (typeof data === 'string') return data;
  let binary = '';
  for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Base64 text or bytes as bytes. */
export function toBytes(data: Uint8Array | string): Uint8Array {
  if (typeof data !== 'string') return data;
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
