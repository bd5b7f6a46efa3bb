import type { Cost } from './cost/cost.js';
import type { AttemptInfo, CacheOutcome, FleetInfo } from './hooks.js';

// What the core tells an observer about each call: a small, vendor-neutral interface, so the
// core imports no tracing library. `unified-gateway/otel` implements it with OpenTelemetry.
// A client without `telemetry` never creates an observer: the core checks one field per
// request and otherwise runs as before.

/** Removes the client's secrets (its API keys) from text a server sent. */
export interface TelemetryRedactor {
  string(text: string): string;
}

/**
 * Watches a client's calls (`new Gateway({ telemetry })`). `unified-gateway/otel` gives one
 * for OpenTelemetry; any object of this shape works. Its methods are called synchronously on
 * the request path: keep them cheap, and do not throw.
 */
export interface Telemetry {
  /**
   * A call starts (before its arguments are checked: a call refused by them ends at once,
   * with the `ValidationError`, and sends nothing). Return an observer
   * for this call, or undefined to leave it unwatched. `redactor` removes the client's keys
   * from anything taken from a response.
   */
  startCall(redactor: TelemetryRedactor): CallObserver | undefined;
}

/** How a call settled: an error (secrets already removed), or its answer. */
export interface CallEnd {
  /** The error the call failed with, as the caller receives it. */
  error?: unknown;
  /**
   * The parsed JSON (or text) of the answer. For a stream, the opened stream: its frames
   * and its end follow through `chunk` and `streamEnd`. Undefined for a raw response
   * (`asResponse()`), after which nothing follows.
   */
  data?: unknown;
  /** With the client's `cost`: what the call cost (null unpriced); for a stream, on `streamEnd` instead. */
  cost?: Cost | null | undefined;
}

/** How a stream ended: with an error (secrets already removed), normally, or left by the caller. */
export interface StreamEnd {
  error?: unknown;
  /** The caller left before the end (`break`, `return()`, a cancelled readable). */
  left?: boolean | undefined;
  /** With the client's `cost`: what the call cost (null unpriced). */
  cost?: Cost | null | undefined;
}

/** A request as the observer sees it (one per model of a call). */
export interface TelemetryRequest {
  method: string;
  /** Relative to the base URL, without a leading slash: `chat/completions`. */
  path: string;
  /** The JSON body to send; the observer may replace it before it is serialised. */
  body?: unknown;
  /** The answer is an event stream. */
  stream?: boolean | undefined;
  /** An absolute URL (downloads) instead of the base URL and `path`. */
  url?: string | undefined;
}

/** One call, from its first request to its end (for a stream: the stream's end). */
export interface CallObserver {
  /**
   * Each model's request before it is serialised: the first, then each fallback model's.
   * The observer may replace `req.body` (telemetry asks a stream for its usage).
   */
  request(req: TelemetryRequest): void;
  /** One HTTP attempt is about to be sent. The headers it returns are added to that attempt (trace context). */
  attempt(info: AttemptInfo): AttemptObserver | undefined;
  /**
   * Every frame of a streamed answer, before it is handed to the caller. Return `false` to
   * withhold a frame that exists only because the observer asked for it in `request` (the
   * usage chunk of `stream_options.include_usage`); the observer may also delete fields
   * its request added (`usage: null`), so the caller's stream is the same with telemetry
   * on or off.
   */
  chunk(frame: unknown): boolean | void;
  /**
   * What the response cache made of the call (with the client's `cache` option): on a `hit`
   * nothing was sent, and `req` is the request it answered (no `request()` came before).
   */
  cache?(outcome: CacheOutcome, req: TelemetryRequest): void;
  /** The fleet's shared state changed what the call does (a base skipped, a pause, a hold, a quota refusal). */
  fleet?(info: FleetInfo): void;
  /** The call settled (its promise resolved or rejected); called once. */
  end(result: CallEnd): void;
  /** A streamed answer ended; called once, after `end` (before it only for a stream aborted while its call settles). */
  streamEnd(result: StreamEnd): void;
}

/** One HTTP attempt. */
export interface AttemptObserver {
  /** Added to the attempt's request headers (e.g. `traceparent`). */
  readonly headers?: Record<string, string> | undefined;
  /**
   * Wraps the attempt's `fetch` call (and its redirects): a tracer runs it inside the
   * attempt's span, so a fetch instrumentation's HTTP span is that span's child.
   */
  run?<T>(fn: () => T): T;
  /** The attempt was answered with `status` (for a stream: its first bytes arrived), or failed with `error`. */
  end(status: number | undefined, error?: unknown): void;
}

/**
 * The client's telemetry as the core calls it: a `startCall` that throws, or returns something
 * other than an object (a number, a string), leaves the call unwatched, as undefined does,
 * rather than failing it.
 */
export function guardTelemetry(telemetry: Telemetry): Telemetry {
  return {
    startCall(redactor) {
      let observer: unknown;
      try {
        observer = telemetry.startCall(redactor);
      } catch {
        // Telemetry that throws never fails the caller's call (STYLE.md 17): the call goes unwatched.
        return undefined;
      }
      return typeof observer === 'object' && observer !== null ? (observer as CallObserver) : undefined;
    },
  };
}
