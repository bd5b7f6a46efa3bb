import { GatewayError } from '../errors.js';
import { SSEReader } from '../streams/sse-reader.js';
import type { StreamClass } from '../types.js';
import { readText, transportError, unexpected, where, type AttemptContext } from './transport.js';

// A stream's answer, opened inside its attempt: what came back is checked, then frames are
// read (streams/sse-reader.ts) until the first one with content, so a cut or a silence
// before it fails the attempt and is retried like any other.

/**
 * Opens a stream's answer inside its attempt: checks what came back, then reads until the
 * first frame that carries content (or the end) has arrived. Until then nothing reached the
 * caller, so a cut, a silence or an error frame fails the attempt and the call retries it
 * like any other; the frames read so far are held and handed out first.
 */
export async function openEventStream(ctx: AttemptContext, response: Response, contentType: string, Class: StreamClass<unknown>): Promise<SSEReader> {
  // An HTML page where events were expected is a wrong URL or a proxy's page, not a cut stream.
  if (contentType.includes('html')) throw unexpected(ctx, await readText(ctx, response), contentType, 'an event stream');
  if (!response.body) throw new GatewayError(`Response has no body to stream (${where(ctx)}).`);
  const body = response.body.getReader();
  const { call } = ctx;
  const route = ctx.request.route?.frames(ctx.request.usage === true);
  const reader = new SSEReader(body, {
    // The attempt's signal: its timeout stops a wait for the first content even where a custom
    // fetch's body does not end on abort (the call's own signal is part of it).
    signal: ctx.signal ?? new AbortController().signal,
    controller: call.controller as AbortController,
    idleTimeoutMs: call.options.idleTimeout ?? call.config.idleTimeout,
    redactor: call.config.redactor,
    where: where(ctx),
    // A chat stream served through /v1/responses (request/adapt-step.ts) is read as that endpoint's events, each given on as chat chunks.
    ...(route ? { terminalEvents: route.terminalEvents, hasContent: (frame: unknown) => route.hasContent(frame), translate: (frame: unknown) => route.translate(frame) } : { terminalEvents: Class.terminalEvents, hasContent: (frame: unknown) => Class.hasContent(frame) }),
    observer: call.observer,
    usageAsked: call.usageAsked,
  });
  try {
    // Labelled as something else (text/plain from a proxy): events are read, anything else quoted.
    if (contentType && !contentType.includes('event-stream')) {
      const quote = await quoteUnlessEvents(reader);
      if (quote !== undefined) throw unexpected(ctx, quote, contentType, 'an event stream');
    }
    await reader.open();
  } catch (error) {
    reader.close();
    // The attempt's own timeout, while waiting for the first content, is a timeout like any other attempt's.
    if (ctx.timer.signal.aborted && !call.signal?.aborted) throw transportError(ctx, error instanceof GatewayError ? error.cause : error);
    throw error instanceof GatewayError ? error : transportError(ctx, error);
  }
  return reader;
}

/** How much of a body that should have been an event stream is read to quote it. */
const QUOTE_BYTES = 16_384;

/** How an event stream's first line starts: a field name and a colon, or a comment. */
const EVENT_STARTS = ['data:', 'event:', 'id:', 'retry:', ':'];

/**
 * For a stream whose body is labelled as something other than events: undefined when its
 * first bytes start like events (then it is read as a stream), else up to QUOTE_BYTES of it
 * to quote in an error.
 */
async function quoteUnlessEvents(reader: SSEReader): Promise<string | undefined> {
  const first = await reader.peek();
  if (first === undefined) return undefined;
  // A first chunk may hold only part of a field name.
  const start = new TextDecoder().decode(first.subarray(0, 16)).trimStart();
  if (EVENT_STARTS.some((field) => start.startsWith(field) || field.startsWith(start))) return undefined;
  return new TextDecoder().decode(first) + (await reader.readRest(QUOTE_BYTES - first.length));
}
