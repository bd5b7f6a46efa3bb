import { lazy } from '../internal/lazy.js';
import { untilAborted } from '../internal/signals.js';
import type { BodyIO } from './open-body.js';
import { apiError, errorFactory, readText, shownURL, transportError, where, type Exchange } from './exchange.js';
import { APIConnectionError, GatewayError, isErrorPayload } from './errors.js';
import type { Answer } from './types.js';

const loadOpenBody = lazy(() => import('./open-body.js'));

// Reading one response: classify it (an error, the raw response, a stream, text or JSON),
// then parse it. What it throws, call.ts passes to the decision (decide.ts).

/** Classifies a response and reads it into the attempt's answer. */
export async function readResponse(ex: Exchange, response: Response): Promise<Answer> {
  const { req } = ex.request;
  const contentType = response.headers.get('content-type') ?? '';
  if (!response.ok || (req.stream && contentType.includes('json'))) throw await errorOf(ex, response, contentType);
  if (ex.call.raw) return { response, data: undefined };
  // The stream and download path loads with the first stream or download.
  if (req.stream || req.download) return { response, data: await (await loadOpenBody()).openBody(ex, response, { contentType, io: BODY_IO }) };
  // readText inlined: one promise fewer on the path every JSON request takes.
  let text: string;
  try {
    text = await (ex.custom ? untilAborted(response.text(), ex.signal) : response.text());
  } catch (error) {
    throw await transportError(ex, error);
  }
  if (req.responseType === 'text') return { response, data: text };
  const payload = parseBody(text);
  // Retried like a connection error: a proxy may have answered without the request being served.
  if (payload === undefined) throw new APIConnectionError(`Empty response body (${response.status}) from ${where(ex)}: the request may not have been served.`);
  if (typeof payload === 'string') throw await unexpected(ex, payload, contentType, 'JSON');
  if (isErrorPayload(payload)) throw await apiError(ex, response, payload);
  return { response, data: payload };
}

/** An error status, or JSON where events were expected (an error object, or a server that ignored `stream`). */
async function errorOf(ex: Exchange, response: Response, contentType: string): Promise<GatewayError> {
  const payload = parseBody(await readText(ex, response));
  if (response.ok && !isErrorPayload(payload)) return new GatewayError(`Expected an event stream but got JSON (${where(ex)}).`);
  return apiError(ex, response, payload, { hint: response.status === 404 || typeof payload === 'string' });
}

/**
 * What open-body.ts needs of this module and exchange.ts, handed over rather than imported:
 * a module loaded on first use that imports the modules every app loads would make app
 * bundlers split those into chunks of their own (docs/architecture.md#size).
 */
const BODY_IO: BodyIO = { readText, transportError, unexpected, where, shownURL };

/** A successful response whose body is not what the endpoint sends, quoted (secrets removed). */
async function unexpected(ex: Exchange, text: string, contentType: string, expected: string): Promise<GatewayError> {
  const base = ex.request.req.url === undefined ? ex.info.baseURL : undefined;
  return (await errorFactory()).unexpectedBody(text, { contentType, expected, method: ex.info.method, url: shownURL(ex.url), baseURL: base }, ex.call.config.redactor);
}

/** Parsed JSON, the raw text when it is not JSON, or undefined for an empty body. */
function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
