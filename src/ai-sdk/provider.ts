import type { EmbeddingModelV3, Experimental_VideoModelV3, ImageModelV3, LanguageModelV3, ProviderV3, TranscriptionModelV3 } from '@ai-sdk/provider';
import type { Gateway as GatewayClient, GatewayOptions, ModelId } from 'unified-gateway';
import { Gateway, ValidationError } from '../index.js';
import { UnifiedGatewayEmbeddingModel } from './embedding-model.js';
import { UnifiedGatewayImageModel } from './image-model.js';
import { UnifiedGatewayLanguageModel } from './language-model.js';
import { UnifiedGatewayTranscriptionModel } from './transcription-model.js';
import { UnifiedGatewayVideoModel } from './video-model.js';

/** What {@link createUnifiedGateway} takes: any {@link GatewayOptions}, or a configured client to reuse. */
export type UnifiedGatewaySettings = GatewayOptions | { client: GatewayClient };

/**
 * The gateway as a Vercel AI SDK provider (specification v3). Call it with a chat model id,
 * or ask for a model of another kind.
 */
export interface UnifiedGatewayProvider extends ProviderV3 {
  /** A chat model, e.g. `gw('gpt-4o-mini')`. */
  (modelId: ModelId): LanguageModelV3;
  /** A chat model, for `generateText`, `streamText`, `generateObject`, tools and `Output.object`. */
  languageModel(modelId: ModelId): LanguageModelV3;
  /** An embedding model, for `embed` and `embedMany`. */
  embeddingModel(modelId: ModelId): EmbeddingModelV3;
  /** An image model, for `generateImage`. */
  imageModel(modelId: ModelId): ImageModelV3;
  /** A speech-to-text model, for `transcribe`. */
  transcriptionModel(modelId: ModelId): TranscriptionModelV3;
  /** A video model, for `experimental_generateVideo`. */
  videoModel(modelId: ModelId): Experimental_VideoModelV3;
  /**
   * The client every call goes through. Made on first use for {@link unifiedGateway}, and
   * for a provider created without its key or base URL: reading it then throws as the
   * first call would.
   */
  readonly client: GatewayClient;
}

/**
 * Creates a Vercel AI SDK provider whose every call goes through a {@link GatewayClient}:
 * failover to the backup base URL, retries and Retry-After, model fallback, validation
 * before sending and key redaction apply as they do for the client. Errors reach the AI SDK
 * as its `APICallError` (`cause` is the client's typed error), never retryable there: the
 * client has made its attempts already.
 *
 * Without an API key or base URL (a module that creates the provider at its top level,
 * loaded by a `next build` in CI or Docker where the secrets are absent), the client is made
 * at the first model call instead, which fails without them with the client's message naming
 * the option and the environment variable. An option of the wrong shape is refused here,
 * with `ValidationError`.
 * @example
 * import { generateText } from 'ai';
 * import { createUnifiedGateway } from 'unified-gateway/ai-sdk';
 * const gw = createUnifiedGateway({ apiKey: process.env.GATEWAY_API_KEY, baseURL: 'https://gateway.example/v1' });
 * const { text } = await generateText({ model: gw('gpt-4o-mini'), prompt: 'Hello!' });
 */
export function createUnifiedGateway(settings: UnifiedGatewaySettings = {}): UnifiedGatewayProvider {
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
    throw new ValidationError('settings', 'must be an object: Gateway options, or { client } with a Gateway');
  }
  if ('client' in settings) {
    const given: unknown = settings.client;
    if (!isGateway(given)) throw new ValidationError('client', 'must be a Gateway (new Gateway({ apiKey, baseURL }))');
    return providerOf(() => given);
  }
  return lazyProvider(settings, clientIfConfigured(settings));
}

/** The client, or undefined while a secret is missing (then it is made at first use); a wrong option throws now. */
function clientIfConfigured(options: GatewayOptions): GatewayClient | undefined {
  try {
    return new Gateway(options);
  } catch (error) {
    if (ValidationError.isInstance(error)) throw error;
    return undefined;
  }
}

/** A Gateway, also one from another copy of the package (ESM and CJS side by side): the calls the models make are there. */
function isGateway(value: unknown): value is GatewayClient {
  if (value instanceof Gateway) return true;
  const client = value as Partial<GatewayClient> | null;
  return typeof client === 'object' && client !== null && typeof client.baseURL === 'string' && typeof client.chat?.completions?.create === 'function';
}

/**
 * The default provider: a client configured from `GATEWAY_API_KEY`, `GATEWAY_BASE_URL` and
 * the other `GATEWAY_*` variables, created on first use.
 * @example const { text } = await generateText({ model: unifiedGateway('gpt-4o-mini'), prompt: 'Hello!' });
 */
export const unifiedGateway: UnifiedGatewayProvider = /* @__PURE__ */ lazyProvider();

/** A provider whose client is made at its first use unless given; a failed construction (no key yet) is tried again at the next. */
function lazyProvider(options: GatewayOptions = {}, made?: GatewayClient): UnifiedGatewayProvider {
  let client = made;
  return providerOf(() => (client ??= new Gateway(options)));
}

function providerOf(client: () => GatewayClient): UnifiedGatewayProvider {
  const languageModel = (modelId: string) => new UnifiedGatewayLanguageModel(checkModelId(modelId), client);
  const provider = Object.assign((modelId: string) => languageModel(modelId), {
    specificationVersion: 'v3' as const,
    languageModel,
    embeddingModel: (modelId: string) => new UnifiedGatewayEmbeddingModel(checkModelId(modelId), client),
    imageModel: (modelId: string) => new UnifiedGatewayImageModel(checkModelId(modelId), client),
    transcriptionModel: (modelId: string) => new UnifiedGatewayTranscriptionModel(checkModelId(modelId), client),
    videoModel: (modelId: string) => new UnifiedGatewayVideoModel(checkModelId(modelId), client),
  });
  return Object.defineProperty(provider, 'client', { get: client, enumerable: true }) as unknown as UnifiedGatewayProvider;
}

/**
 * A model id, checked when the model is made: one that is not a string failed at the first
 * call with a TypeError from deep inside. A ValidationError like the provider's other
 * arguments: the AI SDK's providers have no error of their own for a malformed id
 * (`NoSuchModelError` is for a provider without that kind of model).
 */
function checkModelId(modelId: unknown): string {
  if (typeof modelId !== 'string' || modelId.trim() === '') {
    const got = modelId === null ? 'null' : typeof modelId === 'string' ? 'an empty string' : typeof modelId;
    throw new ValidationError('modelId', `must be a non-empty string, such as gw('gpt-4o-mini') or gw.embeddingModel('text-embedding-3-small') (got ${got})`);
  }
  return modelId;
}
