import type { EmbeddingModelV3, EmbeddingModelV3CallOptions, EmbeddingModelV3Result } from '@ai-sdk/provider';
import type { Gateway } from '../index.js';
import { callGateway } from './errors.js';
import { headersOf, requestOptions, splitProviderOptions } from './shared.js';

/** An embedding model of the gateway, as the AI SDK's embedding model (specification v3). */
export class UnifiedGatewayEmbeddingModel implements EmbeddingModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = 'unified-gateway.embedding';
  readonly modelId: string;
  /** What the endpoint takes in one request; `embedMany` splits longer lists and keeps their order. */
  readonly maxEmbeddingsPerCall = 2048;
  readonly supportsParallelCalls = true;
  // Not a #private field: ai 7 wraps a v3 model in a Proxy and calls its methods on the
  // proxy, where #private fields cannot be read.
  private readonly client: () => Gateway;

  constructor(modelId: string, client: () => Gateway) {
    this.modelId = modelId;
    this.client = client;
  }

  async doEmbed(options: EmbeddingModelV3CallOptions): Promise<EmbeddingModelV3Result> {
    const extras = splitProviderOptions(options.providerOptions);
    const body = { model: this.modelId, input: options.values, ...extras.body };
    const client = this.client();
    const { data, response } = await callGateway({ url: `${client.baseURL}/embeddings`, requestBodyValues: body }, () =>
      client.embeddings.create(body, requestOptions(options, extras.request)).withResponse(),
    );
    // The gateway may answer out of order: `index` says which input each vector is for.
    const embeddings = [...data.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
    return { embeddings, usage: { tokens: data.usage.prompt_tokens }, response: { headers: headersOf(response), body: data }, warnings: [] };
  }
}
