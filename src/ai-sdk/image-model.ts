import type { ImageModelV3, ImageModelV3CallOptions, ImageModelV3File, SharedV3Warning } from '@ai-sdk/provider';
import type { Gateway, ImagesResponse } from '../index.js';
import { callGateway } from './errors.js';
import { headersOf, requestOptions, splitProviderOptions, toBase64, toBytes } from './shared.js';

type ImageResult = Awaited<ReturnType<ImageModelV3['doGenerate']>>;

/** dall-e-3 makes one image per request; `generateImage({ n })` sends as many requests as it needs. */
const maxImagesByModel: Record<string, number> = { 'dall-e-3': 1 };

/** An image model of the gateway, as the AI SDK's image model (specification v3). */
export class UnifiedGatewayImageModel implements ImageModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = 'unified-gateway.image';
  readonly modelId: string;
  readonly maxImagesPerCall: number;
  // Not a #private field: ai 7 wraps a v3 model in a Proxy and calls its methods on the
  // proxy, where #private fields cannot be read.
  private readonly client: () => Gateway;

  constructor(modelId: string, client: () => Gateway) {
    this.modelId = modelId;
    // Own keys only: any string is a model id, `constructor` too.
    this.maxImagesPerCall = Object.hasOwn(maxImagesByModel, modelId) ? (maxImagesByModel[modelId] as number) : 10;
    this.client = client;
  }

  /** Generates, or edits when `prompt` comes with files (`generateImage({ prompt: { text, images } })`). Sizes are checked by the client for the models it knows. */
  async doGenerate(options: ImageModelV3CallOptions): Promise<ImageResult> {
    const warnings: SharedV3Warning[] = [];
    if (options.aspectRatio !== undefined) warnings.push({ type: 'unsupported', feature: 'aspectRatio', details: 'Use size.' });
    if (options.seed !== undefined) warnings.push({ type: 'unsupported', feature: 'seed' });
    const extras = splitProviderOptions(options.providerOptions);
    const body = { model: this.modelId, prompt: options.prompt ?? '', n: options.n, ...(options.size ? { size: options.size } : {}), response_format: 'b64_json' as const, ...extras.body };
    const client = this.client();
    const request = requestOptions(options, extras.request);
    const image = options.files?.[0];
    const { data, response } = image
      ? await callGateway({ url: `${client.baseURL}/images/edits`, requestBodyValues: body }, async () =>
          client.images.edit({ ...body, image: await fileOf(client, image, options.abortSignal), ...(options.mask ? { mask: await fileOf(client, options.mask, options.abortSignal) } : {}) }, request).withResponse(),
        )
      : await callGateway({ url: `${client.baseURL}/images/generations`, requestBodyValues: body }, () => client.images.generate(body, request).withResponse());
    return { images: await base64Images(client, data, options.abortSignal), warnings, response: { timestamp: new Date(data.created * 1000), modelId: this.modelId, headers: headersOf(response) } };
  }
}

async function fileOf(client: Gateway, file: ImageModelV3File, signal?: AbortSignal): Promise<Blob> {
  if (file.type === 'url') return (await client.images.download(file.url, { signal })).blob();
  return new Blob([toBytes(file.data) as Uint8Array<ArrayBuffer>], { type: file.mediaType });
}

/**
 * A gateway that ignores `response_format` answers with URLs: those images are downloaded
 * through the client (its fetch, timeouts and retries; the key only to its own origins).
 */
async function base64Images(client: Gateway, data: ImagesResponse, signal: AbortSignal | undefined): Promise<string[]> {
  return Promise.all(
    data.data.map(async (item) => {
      if (item.b64_json) return item.b64_json;
      if (!item.url) return '';
      return toBase64(new Uint8Array(await (await client.images.download(item, { signal })).arrayBuffer()));
    }),
  );
}

