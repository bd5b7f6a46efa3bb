import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { Cost } from '../core/cost/cost.js';
import type { AttemptInfo, CacheOutcome, FleetInfo } from '../core/hooks.js';
import type { AttemptObserver, CallEnd, CallObserver, StreamEnd, TelemetryRedactor, TelemetryRequest } from '../core/telemetry.js';
import { StreamAnswer, readAnswer, type Answer } from './answer.js';
import { inputOf } from './content.js';
import { fetchIsInstrumented } from './fetch-traced.js';
import type { Instruments } from './instruments.js';
import { ATTR, EVENT, OPERATION } from './names.js';
import { operationOf, requestAttributes, safeURL } from './request.js';
import { isRecord } from './values.js';

// One call as OpenTelemetry sees it: a CLIENT span named `{operation} {model}` from the
// first request to the end of the answer (for a stream, the stream's end), a child CLIENT
// span per HTTP attempt with the trace context injected into its headers, and the
// conventions' metrics when the call ends. Everything taken from a response or an error
// passes the client's redactor first: the API key never reaches an exporter.

/** What every call of one client shares. */
export interface ObserverSettings {
  tracer: Tracer;
  instruments: Instruments;
  provider: string;
  captureContent: boolean;
  /** Also emit `gen_ai.system` (the conventions before v1.37). */
  legacyNames: boolean;
  /** Told of what telemetry threw (a span processor, an exporter, a meter): the call goes on. */
  report(error: unknown, redactor: TelemetryRedactor): void;
}

const now = (): number => performance.now();

/** An error's kind, low-cardinality: the SDK's class name (`RateLimitError`), else its constructor's. */
function errorType(error: unknown): string {
  if (error instanceof Error && error.name && error.name !== 'Error') return error.name;
  const name = (error as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  return typeof name === 'string' && name ? name : '_OTHER';
}

const statusOf = (error: unknown): number | undefined => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
};

/** The last chunk of a stream asked for its usage: no choices, only the usage (not output: it is not timed). */
const isUsageOnly = (frame: unknown): boolean => isRecord(frame) && isRecord(frame.usage) && Array.isArray(frame.choices) && frame.choices.length === 0;

export class CallSpan implements CallObserver {
  readonly #settings: ObserverSettings;
  readonly #redactor: TelemetryRedactor;
  readonly #parent: Context;
  readonly #started = now();
  #span: Span | undefined;
  #spanContext: Context | undefined;
  #operation = '';
  /** The model the caller asked for (the span's), and the one of the request in flight (after a fallback, another). */
  #requested: string | undefined;
  #model: string | undefined;
  #stream = false;
  #attempts = 0;
  #server: { address: string; port: number } | undefined;
  #streamed: StreamAnswer | undefined;
  #lastChunk = 0;
  /** The metric attributes of every chunk of a stream, set at its first chunk. */
  #chunkAttributes: Attributes | undefined;
  #ended = false;

  /** Fleet events from before the span existed. */
  #early: Attributes[] | undefined;

  constructor(settings: ObserverSettings, redactor: TelemetryRedactor) {
    this.#settings = settings;
    this.#redactor = redactor;
    this.#parent = context.active();
  }

  // Each method the core calls catches what the SDK throws (a span processor, a meter):
  // telemetry never fails the caller's call, even one the server already answered.
  request(req: TelemetryRequest): void {
    try {
      this.#request(req);
    } catch (error) {
      this.#settings.report(error, this.#redactor);
    }
  }

  attempt(info: AttemptInfo): AttemptObserver | undefined {
    try {
      return this.#attempt(info);
    } catch (error) {
      this.#settings.report(error, this.#redactor);
      return undefined;
    }
  }

  chunk(frame: unknown): boolean {
    // Telemetry reads every frame whole, the usage chunk the SDK asked for among them (the core
    // takes that one out of the caller's stream: usage/stream-usage.ts).
    try {
      this.#chunk(frame, !isUsageOnly(frame));
    } catch (error) {
      this.#settings.report(error, this.#redactor);
    }
    return true;
  }

  cache(outcome: CacheOutcome, req: TelemetryRequest): void {
    try {
      // A hit sent nothing: its span starts here.
      if (!this.#span) this.#request(req);
      this.#span?.setAttribute(ATTR.cache, outcome);
    } catch (error) {
      this.#settings.report(error, this.#redactor);
    }
  }

  fleet(info: FleetInfo): void {
    try {
      const event = { [ATTR.fleetEvent]: info.event, [ATTR.fleetWaitMs]: info.waitMs };
      // What happens before anything is sent (a quota refusal, a hold for budget) comes before the span.
      if (this.#span) this.#span.addEvent(EVENT.fleet, event);
      else (this.#early ??= []).push(event);
    } catch (error) {
      this.#settings.report(error, this.#redactor);
    }
  }

  end(result: CallEnd): void {
    try {
      this.#end(result);
    } catch (error) {
      this.#settings.report(error, this.#redactor);
    }
  }

  streamEnd(result: StreamEnd): void {
    try {
      this.#streamEnd(result);
    } catch (error) {
      this.#settings.report(error, this.#redactor);
    }
  }

  #request(req: TelemetryRequest): void {
    if (this.#ended) return;
    const body = isRecord(req.body) ? req.body : {};
    const model = typeof body.model === 'string' ? body.model : undefined;
    if (this.#span) {
      // A fallback model: its attempts follow under the same call span.
      if (model !== undefined && model !== this.#model) this.#span.addEvent(EVENT.modelFallback, { [ATTR.fallbackFrom]: this.#model ?? '', [ATTR.fallbackTo]: model });
      this.#model = model;
      return;
    }
    const traced = req.url === undefined ? operationOf(req.method, req.path) : undefined;
    if (traced === undefined) return;
    const operation = (this.#operation = traced.name);
    this.#requested = this.#model = model;
    this.#stream = req.stream === true;
    const settings = this.#settings;
    const attributes: Attributes = { ...this.#common(), ...requestAttributes(body) };
    if (traced.output !== undefined) attributes[ATTR.outputType] = traced.output;
    if (this.#stream) attributes[ATTR.requestStream] = true;
    if (settings.captureContent && operation !== OPERATION.embeddings) Object.assign(attributes, this.#input(body));
    this.#span = settings.tracer.startSpan(model ? `${operation} ${model}` : operation, { kind: SpanKind.CLIENT, attributes }, this.#parent);
    this.#spanContext = trace.setSpan(this.#parent, this.#span);
    for (const event of this.#early ?? []) this.#span.addEvent(EVENT.fleet, event);
    this.#early = undefined;
  }

  /** The attributes spans and metrics share. */
  #common(): Attributes {
    const attributes: Attributes = { [ATTR.operationName]: this.#operation, [ATTR.providerName]: this.#settings.provider };
    if (this.#settings.legacyNames) attributes[ATTR.system] = this.#settings.provider;
    if (this.#requested !== undefined) attributes[ATTR.requestModel] = this.#requested;
    return attributes;
  }

  #input(body: Record<string, unknown>): Attributes {
    const { messages, instructions } = inputOf(body);
    const attributes: Attributes = {};
    if (messages.length) attributes[ATTR.inputMessages] = this.#json(messages);
    if (instructions) attributes[ATTR.systemInstructions] = this.#json(instructions);
    return attributes;
  }

  /** Content as a JSON string (span attributes hold no structures), the client's keys removed. */
  #json(value: unknown): string {
    return this.#redactor.string(JSON.stringify(value));
  }

  #attempt(info: AttemptInfo): AttemptObserver | undefined {
    const parent = this.#spanContext;
    if (!parent || this.#ended) return undefined;
    const url = safeURL(info.url);
    const attributes: Attributes = { [ATTR.httpRequestMethod]: info.method };
    if (url) {
      attributes[ATTR.urlFull] = this.#redactor.string(url.full);
      attributes[ATTR.urlTemplate] = url.path;
      attributes[ATTR.serverAddress] = url.address;
      attributes[ATTR.serverPort] = url.port;
    }
    // The server of the last attempt: the one that answered, or the last one a failed call tried.
    if (url) this.#server = { address: url.address, port: url.port };
    if (this.#attempts > 0) attributes[ATTR.httpRequestResendCount] = this.#attempts;
    if (this.#model !== undefined) attributes[ATTR.requestModel] = this.#model;
    this.#attempts++;
    const span = this.#settings.tracer.startSpan(url ? `${info.method} ${url.path}` : info.method, { kind: SpanKind.CLIENT, attributes }, parent);
    const attemptContext = trace.setSpan(parent, span);
    let headers: Record<string, string> | undefined;
    // An instrumented fetch injects its own HTTP span's context (a child of this one): one traceparent, not two.
    if (!fetchIsInstrumented()) propagation.inject(attemptContext, (headers = {}));
    return {
      headers,
      run: (fn) => this.#within(attemptContext, fn),
      end: (status, error) => {
        try {
          this.#attemptEnd(span, status, error);
        } catch (thrown) {
          this.#settings.report(thrown, this.#redactor);
        }
      },
    };
  }

  /** `fn` (the attempt's fetch) inside `ctx`, called exactly once, whatever the context manager does. */
  #within<T>(ctx: Context, fn: () => T): T {
    let called = false;
    try {
      return context.with(ctx, () => {
        called = true;
        return fn();
      });
    } catch (error) {
      if (called) throw error;
      this.#settings.report(error, this.#redactor);
      return fn();
    }
  }

  #attemptEnd(span: Span, status: number | undefined, error: unknown): void {
    const code = status ?? statusOf(error);
    if (code !== undefined) span.setAttribute(ATTR.httpResponseStatusCode, code);
    if (error !== undefined || (code !== undefined && code >= 400)) {
      span.setAttribute(ATTR.errorType, code !== undefined && code >= 400 ? String(code) : errorType(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  }

  /**
   * Reads one frame; times it unless it is not `output` (the usage-only chunk telemetry
   * asked for). The first chunk's time is the time to first chunk, each later one's the
   * time since the one before.
   */
  #chunk(frame: unknown, output: boolean): void {
    const span = this.#span;
    if (!span) return;
    (this.#streamed ??= new StreamAnswer()).add(frame, this.#settings.captureContent);
    if (!output) return;
    const at = now();
    const { instruments } = this.#settings;
    if (this.#chunkAttributes === undefined) {
      // Made once, after the first chunk named the answering model: nothing in them changes later.
      const attributes = (this.#chunkAttributes = this.#metricAttributes());
      const seconds = (at - this.#started) / 1000;
      span.setAttribute(ATTR.responseTimeToFirstChunk, seconds);
      instruments.timeToFirstChunk.record(seconds, attributes);
    } else {
      instruments.timePerOutputChunk.record((at - this.#lastChunk) / 1000, this.#chunkAttributes);
    }
    this.#lastChunk = at;
  }

  #end(result: CallEnd): void {
    // A stream's span stays open until the stream ends (streamEnd).
    if (this.#stream && result.error === undefined && result.data !== undefined) return;
    this.#finish(result.error, result.error === undefined && !this.#stream ? readAnswer(result.data) : undefined, result.cost);
  }

  #streamEnd(result: StreamEnd): void {
    if (result.left && this.#span && !this.#ended) this.#span.setAttribute(ATTR.streamLeft, true);
    this.#finish(result.error, this.#streamed?.result() ?? { finishReasons: [], output: [] }, result.cost);
  }

  /** Ends the call span once (with the call's cost, when the client priced it), and records the call's metrics. */
  #finish(error: unknown, answer: Answer | undefined, cost?: Cost | null): void {
    const span = this.#span;
    if (!span || this.#ended) return;
    this.#ended = true;
    const attributes = this.#metricAttributes(answer);
    if (error !== undefined) {
      attributes[ATTR.errorType] = errorType(error);
      const message = error instanceof Error ? this.#redactor.string(error.message) : undefined;
      span.setStatus({ code: SpanStatusCode.ERROR, message });
    }
    span.setAttributes(attributes);
    if (answer) this.#answerAttributes(span, answer);
    if (cost) this.#costAttributes(span, cost);
    span.end();
    const { instruments } = this.#settings;
    instruments.operationDuration.record((now() - this.#started) / 1000, attributes);
    if (answer?.inputTokens !== undefined) instruments.tokenUsage.record(answer.inputTokens, { ...attributes, [ATTR.tokenType]: 'input' });
    if (answer?.outputTokens !== undefined) instruments.tokenUsage.record(answer.outputTokens, { ...attributes, [ATTR.tokenType]: 'output' });
  }

  /** The attributes metrics carry (the conventions' list for them, low-cardinality). */
  #metricAttributes(answer?: Answer): Attributes {
    const attributes = this.#common();
    if (this.#server) {
      attributes[ATTR.serverAddress] = this.#server.address;
      attributes[ATTR.serverPort] = this.#server.port;
    }
    const model = answer?.model ?? this.#streamed?.answer.model;
    if (model !== undefined) attributes[ATTR.responseModel] = this.#redactor.string(model);
    return attributes;
  }

  /** The call's cost (`cost: true`): quota and source always, dollars unless the gateway counts in tokens. */
  #costAttributes(span: Span, cost: Cost): void {
    span.setAttribute(ATTR.costQuota, cost.quota);
    if (cost.usd !== null) span.setAttribute(ATTR.costUSD, cost.usd);
    span.setAttribute(ATTR.costSource, cost.source);
  }

  #answerAttributes(span: Span, answer: Answer): void {
    const redact = (s: string) => this.#redactor.string(s);
    if (answer.id !== undefined) span.setAttribute(ATTR.responseId, redact(answer.id));
    if (answer.finishReasons.length) span.setAttribute(ATTR.responseFinishReasons, answer.finishReasons.map(redact));
    if (answer.inputTokens !== undefined) span.setAttribute(ATTR.usageInputTokens, answer.inputTokens);
    if (answer.outputTokens !== undefined) span.setAttribute(ATTR.usageOutputTokens, answer.outputTokens);
    if (answer.cacheReadTokens !== undefined) span.setAttribute(ATTR.usageCacheReadInputTokens, answer.cacheReadTokens);
    if (answer.reasoningTokens !== undefined) span.setAttribute(ATTR.usageReasoningOutputTokens, answer.reasoningTokens);
    if (this.#settings.captureContent && answer.output.length && this.#operation !== OPERATION.embeddings) span.setAttribute(ATTR.outputMessages, this.#json(answer.output));
  }
}
