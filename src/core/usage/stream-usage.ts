import { isRecord } from '../../internal/is-record.js';

// The usage of a streamed answer: chat and text completion streams send it only when asked
// (`stream_options.include_usage`). The SDK asks where it needs the figures (telemetry) and
// the caller did not choose `stream_options`; what asking adds to the stream is then taken
// out again before the caller sees it, so a caller's stream is the same whether or not the
// SDK asked.

/** Paths whose streams send usage only when asked. */
const ASKED_ON: ReadonlySet<string> = new Set(['chat/completions', 'completions']);

/** The body with usage asked for, or undefined when the caller chose `stream_options` (or the endpoint always sends it). */
export function askForUsage(path: string, body: object | undefined): object | undefined {
  if (!ASKED_ON.has(path) || !isRecord(body) || body.stream !== true || body.stream_options !== undefined) return undefined;
  return { ...body, stream_options: { include_usage: true } };
}

/**
 * Undoes on one frame what asking for usage added: `usage: null` on every chunk (deleted),
 * and the last chunk, which carries only the usage (true: withhold it). Usage on a chunk
 * with choices is left: some servers send it unasked.
 */
export function withholdAskedUsage(frame: unknown): boolean {
  if (!isRecord(frame) || !('usage' in frame)) return false;
  if (frame.usage === null) {
    delete frame.usage;
    return false;
  }
  return Array.isArray(frame.choices) && frame.choices.length === 0;
}
