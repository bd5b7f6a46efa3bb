import { APICallError } from '@ai-sdk/provider';
import { APIError, APIUserAbortError, GatewayError, ValidationError } from '../index.js';

/** What a model knows about the call that failed, for the AI SDK's error. */
export interface CallContext {
  /** The URL the call would go to, used when the error does not name the one it reached. */
  url: string;
  /** The request body as sent (no credentials: the key only ever travels in a header). */
  requestBodyValues: unknown;
}

// A connection failure or timeout has no URL property: its message names the attempt as
// "(METHOD url)", written by the client before any text of the failure's own.
const requestLine = /\((?:GET|POST|DELETE) (\S+?)\)/;

/**
 * The AI SDK's shape for a failure of the client.
 *
 * `isRetryable` is always false: the client has already retried, failed over and fallen
 * back to other models, so a retry by the AI SDK would only multiply the attempts (3 × 3
 * for a gateway that keeps answering 503) and could submit a paid video task twice.
 * Arguments the client refused before sending (`ValidationError`) and aborts are not API
 * calls: they stay as they are, an abort as an `AbortError` the AI SDK recognises.
 */
export function toAISDKError(thrown: unknown, context: CallContext): unknown {
  if (APICallError.isInstance(thrown) || ValidationError.isInstance(thrown) || !GatewayError.isInstance(thrown)) return thrown;
  const error: GatewayError = thrown;
  // A plain boolean: as a type guard it would narrow `error` to never (the two classes have one shape).
  const aborted: boolean = APIUserAbortError.isInstance(error);
  if (aborted) {
    const abort = new Error(error.message, { cause: error });
    abort.name = 'AbortError';
    return abort;
  }
  const api = APIError.isInstance(error) ? error : undefined;
  return new APICallError({
    message: error.message,
    url: api?.url ?? requestLine.exec(error.message)?.[1] ?? context.url,
    requestBodyValues: context.requestBodyValues,
    statusCode: api?.status,
    responseHeaders: api ? Object.fromEntries(api.headers) : undefined,
    responseBody: api ? responseBodyOf(api.error) : undefined,
    isRetryable: false,
    cause: error,
  });
}

/** The `AbortError` {@link toAISDKError} makes of the client's `APIUserAbortError`. */
export function isAbortError(error: unknown): error is Error {
  return error instanceof Error && error.name === 'AbortError';
}

/** The client keeps the parsed error body with the API key removed; the AI SDK wants text. */
function responseBodyOf(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/** Runs one client call and turns its failure into the AI SDK's error. */
export async function callGateway<T>(context: CallContext, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toAISDKError(error, context);
  }
}
