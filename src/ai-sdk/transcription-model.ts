import type { TranscriptionModelV3, TranscriptionModelV3CallOptions } from '@ai-sdk/provider';
import type { Gateway, TranscriptionVerbose } from '../index.js';
import { callGateway } from './errors.js';
import { headersOf, requestOptions, splitProviderOptions, toBytes } from './shared.js';

type TranscriptionResult = Awaited<ReturnType<TranscriptionModelV3['doGenerate']>>;

const extensions: Record<string, string> = { 'audio/mpeg': 'mp3', 'audio/mp3': 'mp3', 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/webm': 'webm', 'audio/ogg': 'ogg', 'audio/flac': 'flac', 'audio/mp4': 'm4a', 'audio/m4a': 'm4a' };

/**
 * A speech-to-text model of the gateway, as the AI SDK's transcription model
 * (specification v3). `providerOptions.unifiedGateway.response_format`: `verbose_json`
 * fills segments, language and duration; `srt` or `vtt` puts the subtitles in `text`.
 */
export class UnifiedGatewayTranscriptionModel implements TranscriptionModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = 'unified-gateway.transcription';
  readonly modelId: string;
  // Not a #private field: ai 7 wraps a v3 model in a Proxy and calls its methods on the
  // proxy, where #private fields cannot be read.
  private readonly client: () => Gateway;

  constructor(modelId: string, client: () => Gateway) {
    this.modelId = modelId;
    this.client = client;
  }

  async doGenerate(options: TranscriptionModelV3CallOptions): Promise<TranscriptionResult> {
    const extras = splitProviderOptions(options.providerOptions);
    const fields = { model: this.modelId, ...extras.body };
    const type = options.mediaType.toLowerCase();
    // Own keys only: a media type of `constructor` must not find Object's.
    const name = `audio.${Object.hasOwn(extensions, type) ? extensions[type] : 'bin'}`;
    const file = new Blob([toBytes(options.audio) as Uint8Array<ArrayBuffer>], { type: options.mediaType });
    const client = this.client();
    const { data, response } = await callGateway({ url: `${client.baseURL}/audio/transcriptions`, requestBodyValues: { ...fields, file: name } }, () =>
      client.audio.transcriptions.create({ ...fields, file: new File([file], name, { type: options.mediaType }) }, requestOptions(options, extras.request)).withResponse(),
    );
    const verbose = typeof data === 'object' && ('segments' in data || 'language' in data) ? (data as TranscriptionVerbose) : undefined;
    return {
      text: typeof data === 'string' ? data : data.text,
      segments: (verbose?.segments ?? []).map((s) => ({ text: s.text, startSecond: s.start, endSecond: s.end })),
      language: verbose?.language,
      durationInSeconds: verbose?.duration,
      warnings: [],
      response: { timestamp: new Date(), modelId: this.modelId, headers: headersOf(response), body: data },
    };
  }
}
