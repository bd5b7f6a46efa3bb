import type { Experimental_VideoModelV3 as VideoModelV3, Experimental_VideoModelV3CallOptions as VideoModelV3CallOptions, Experimental_VideoModelV3VideoData as VideoModelV3VideoData, SharedV3Warning } from '@ai-sdk/provider';
import type { Gateway, VideoCreateParams, VideoDuration, VideoTask } from '../index.js';
import { callGateway } from './errors.js';
import { requestOptions, splitProviderOptions } from './shared.js';

type VideoResult = Awaited<ReturnType<VideoModelV3['doGenerate']>>;

/**
 * A video model of the gateway, as the AI SDK's video model (specification v3): one task
 * submitted, then polled at the pace the gateway advises for its duration (5 s by default).
 * `providerOptions.unifiedGateway`: `pollIntervalMs`, `timeoutMs`, `download: false` (the URL
 * rather than the bytes), and body fields.
 * A failure is never retried by the AI SDK, so a paid task is never submitted twice.
 */
export class UnifiedGatewayVideoModel implements VideoModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = 'unified-gateway.video';
  readonly modelId: string;
  readonly maxVideosPerCall = 1;
  // Not a #private field: ai 7 wraps a v3 model in a Proxy and calls its methods on the
  // proxy, where #private fields cannot be read.
  private readonly client: () => Gateway;

  constructor(modelId: string, client: () => Gateway) {
    this.modelId = modelId;
    this.client = client;
  }

  async doGenerate(options: VideoModelV3CallOptions): Promise<VideoResult> {
    const warnings: SharedV3Warning[] = [];
    for (const feature of ['aspectRatio', 'resolution', 'fps', 'seed', 'image', 'frameImages', 'inputReferences', 'generateAudio'] as const) {
      if (options[feature] !== undefined) warnings.push({ type: 'unsupported', feature });
    }
    const { pollIntervalMs, timeoutMs, download, ...fields } = splitProviderOptions(options.providerOptions).body;
    const body = { model: this.modelId, prompt: options.prompt ?? '', duration: (options.duration ?? 5) as VideoDuration, ...fields } as VideoCreateParams;
    const client = this.client();
    const signal = requestOptions(options, {}).signal;
    const task: VideoTask = await callGateway({ url: `${client.baseURL}/videos/generations`, requestBodyValues: body }, () =>
      client.videos.generateAndWait(body, {
        ...(signal ? { signal } : {}),
        ...(typeof pollIntervalMs === 'number' ? { pollIntervalMs } : {}),
        ...(typeof timeoutMs === 'number' ? { timeoutMs } : {}),
      }),
    );
    // Downloaded through the client, which decides who gets the key (the gateway's own
    // proxy does, a CDN does not); the AI SDK's own download refuses private hosts.
    // `download: false` hands the AI SDK the URL instead.
    // normalizeVideoTask already filled video_url from whichever field the gateway used.
    const url = task.video_url ?? '';
    const video: VideoModelV3VideoData =
      download === false
        ? { type: 'url', url, mediaType: 'video/mp4' }
        : await callGateway({ url: url.replace(/[?#].*$/s, ''), requestBodyValues: body }, async () => {
            const response = await client.videos.download(task, signal ? { signal } : {});
            return { type: 'binary', data: new Uint8Array(await response.arrayBuffer()), mediaType: response.headers.get('content-type')?.split(';')[0] || 'video/mp4' };
          });
    return {
      videos: [video],
      warnings,
      providerMetadata: { unifiedGateway: { taskId: task.id } },
      response: { timestamp: new Date(), modelId: task.model ?? this.modelId, headers: undefined },
    };
  }
}
