import { Redactor } from '../../internal/redact.js';
import { createAPIError, excerpt, toConnectionError } from '../error-factory.js';
import { APIConnectionError, APIUserAbortError, GatewayError, isErrorPayload } from '../errors.js';

// The reader of toReadableStream() bodies (stream-from-readable.ts).

/** Where errors say they come from: there is no request to name. */
const SOURCE = { method: 'READ', url: 'ReadableStream' } as const;

/**
 * The frames of a `toReadableStream()` body: one JSON value per line, then an empty line
 * that marks the normal end. Without that marker a body that closed is a cut (a proxy may
 * turn an upstream error into a clean close), so it throws rather than ends.
 */
export async function* readJSONLines(body: ReadableStream<Uint8Array>, controller: AbortController, observe: (frame: unknown) => void): AsyncGenerator<unknown, void, undefined> {
  const signal = controller.signal;
  const aborted = () => new APIUserAbortError(undefined, { cause: signal.reason });
  const reader = openReader(body, signal, aborted);
  // The reader holds no key (the route removed the client's before writing): a Redactor that knows no secret removes nothing from what its errors quote.
  const redactor = new Redactor();
  const decoder = new TextDecoder();
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  let normally = false;
  let buffer = '';
  try {
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        throw signal.aborted ? aborted() : toConnectionError(error, redactor, `Stream interrupted (${SOURCE.method} ${SOURCE.url})`);
      }
      if (signal.aborted) throw aborted();
      // What is already buffered holds no line end: search only the new text (a long line in small chunks stays linear).
      const from = buffer.length;
      buffer += result.done ? decoder.decode() : decoder.decode(result.value, { stream: true });
      let start = 0;
      for (let end = buffer.indexOf('\n', from); end !== -1; end = buffer.indexOf('\n', start)) {
        const line = buffer.charCodeAt(end - 1) === 13 && end > start ? buffer.slice(start, end - 1) : buffer.slice(start, end);
        start = end + 1;
        if (!line) {
          normally = true;
          return;
        }
        const frame = parseLine(line, redactor);
        observe(frame);
        yield frame;
        // An abort takes effect at once, even when more lines are already buffered.
        if (signal.aborted) throw aborted();
      }
      buffer = buffer.slice(start);
      if (result.done) throw endedEarly(buffer);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    // Release the body in every case: after the end marker, whatever follows is not read.
    void reader.cancel().catch(() => undefined);
    if (!normally && !signal.aborted) controller.abort();
  }
}

/** The body's reader; a body already aborted is released, one already being read refused. */
function openReader(body: ReadableStream<Uint8Array>, signal: AbortSignal, aborted: () => GatewayError): ReadableStreamDefaultReader<Uint8Array> {
  if (signal.aborted) {
    void body.cancel().catch(() => undefined);
    throw aborted();
  }
  try {
    return body.getReader();
  } catch (error) {
    throw new GatewayError('The body is already being read (a body can be read once).', { cause: error });
  }
}

/** A body that closed without the end marker: cut mid-line, or between lines. */
function endedEarly(buffer: string): APIConnectionError {
  return new APIConnectionError(
    buffer
      ? `Stream cut mid-line (${SOURCE.method} ${SOURCE.url}): ${excerpt(buffer)}`
      : `Stream ended before its end marker (${SOURCE.method} ${SOURCE.url}): the source stream failed or the connection was cut.`,
  );
}

function parseLine(line: string, redactor: Redactor): unknown {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch (error) {
    throw new GatewayError(`Invalid JSON in stream line (${SOURCE.method} ${SOURCE.url}): ${excerpt(line)}`, { cause: error });
  }
  if (isErrorPayload(data)) throw createAPIError({ status: 200, body: data, headers: new Headers(), ...SOURCE, retryAfterMs: null, redactor });
  return data;
}
