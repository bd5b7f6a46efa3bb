import { isRecord, num } from './values.js';
import type { Attributes } from '@opentelemetry/api';
import { ATTR, OPERATION, OUTPUT_TYPE } from './names.js';

// What a request says, as span attributes: the operation its path names, and the
// generation parameters of its body.

/**
 * Operations by request path (relative to the base URL), with the output they request when
 * the path says it; other calls (the catalogue, a video's status, downloads) are not traced.
 */
const OPERATIONS: Readonly<Record<string, { name: string; output?: string }>> = {
  'chat/completions': { name: OPERATION.chat },
  completions: { name: OPERATION.textCompletion },
  embeddings: { name: OPERATION.embeddings },
  responses: { name: OPERATION.responses },
  'images/generations': { name: OPERATION.generateContent, output: OUTPUT_TYPE.image },
  'images/edits': { name: OPERATION.generateContent, output: OUTPUT_TYPE.image },
  'audio/transcriptions': { name: OPERATION.generateContent, output: OUTPUT_TYPE.text },
  // No output type: the conventions have none for video.
  'videos/generations': { name: OPERATION.generateContent },
};

/** The operation a POST to `path` performs, if it is one that is traced. */
export function operationOf(method: string, path: string): { name: string; output?: string } | undefined {
  return method === 'POST' && Object.hasOwn(OPERATIONS, path) ? OPERATIONS[path] : undefined;
}



/** The request's generation parameters, as the conventions name them. */
export function requestAttributes(body: Record<string, unknown>): Attributes {
  const attributes: Attributes = {};
  const set = (key: string, value: unknown) => {
    const n = num(value);
    if (n !== undefined) attributes[key] = n;
  };
  set(ATTR.requestTemperature, body.temperature);
  set(ATTR.requestTopP, body.top_p);
  set(ATTR.requestMaxTokens, body.max_completion_tokens ?? body.max_tokens ?? body.max_output_tokens);
  set(ATTR.requestFrequencyPenalty, body.frequency_penalty);
  set(ATTR.requestPresencePenalty, body.presence_penalty);
  set(ATTR.requestSeed, body.seed);
  set(ATTR.embeddingsDimensionCount, body.dimensions);
  if (num(body.n) !== undefined && body.n !== 1) attributes[ATTR.requestChoiceCount] = body.n as number;
  const stop = typeof body.stop === 'string' ? [body.stop] : Array.isArray(body.stop) ? body.stop.filter((s): s is string => typeof s === 'string') : undefined;
  if (stop?.length) attributes[ATTR.requestStopSequences] = stop;
  if (typeof body.encoding_format === 'string') attributes[ATTR.requestEncodingFormats] = [body.encoding_format];
  const format = isRecord(body.response_format) ? body.response_format.type : undefined;
  if (format === 'json_object' || format === 'json_schema') attributes[ATTR.outputType] = OUTPUT_TYPE.json;
  return attributes;
}

/** `url.full` without what may be secret: userinfo, query (signed tokens) and fragment. */
export function safeURL(url: string): { full: string; address: string; port: number; path: string } | undefined {
  try {
    const parsed = new URL(url);
    const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'http:' ? 80 : 443;
    return { full: `${parsed.protocol}//${parsed.host}${parsed.pathname}`, address: parsed.hostname, port, path: parsed.pathname };
  } catch {
    return undefined;
  }
}
