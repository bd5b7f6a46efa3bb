import { metrics, trace } from '@opentelemetry/api';
import type { Telemetry, TelemetryRedactor } from '../core/telemetry.js';
import { createInstruments } from './instruments.js';
import { DEFAULT_PROVIDER, SCOPE } from './names.js';
import { CallSpan, type ObserverSettings } from './observer.js';
import { checkOptions, type OpenTelemetryOptions } from './options.js';

/**
 * Traces and metrics for a Gateway client, by the OpenTelemetry GenAI semantic conventions:
 * one CLIENT span per call named `{operation} {model}`, a child span per HTTP attempt
 * (retries, failover to the backup, model fallback), W3C trace context on every attempt,
 * and the `gen_ai.client.*` metrics. Options are checked at once (`ValidationError`). See
 * docs/observability.md.
 * @example
 * import { Gateway } from 'unified-gateway';
 * import { openTelemetry } from 'unified-gateway/otel';
 * const client = new Gateway({ telemetry: openTelemetry() });
 */
export function openTelemetry(given?: OpenTelemetryOptions): Telemetry {
  const options = checkOptions(given);
  let settings: ObserverSettings | undefined;
  let warned = false;
  // Once per openTelemetry(): a broken exporter or processor would otherwise say it on every call.
  const report = (error: unknown, redactor: TelemetryRedactor): void => {
    if (warned) return;
    warned = true;
    const message = redactor.string(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    globalThis.console?.warn(`[unified-gateway] telemetry failed and was skipped, the call went on (said once): ${message}`);
  };
  // Providers are read on the first call, so one registered after the client is made is used.
  const resolve = (): ObserverSettings =>
    (settings ??= {
      tracer: (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE),
      instruments: createInstruments((options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE)),
      provider: options.providerName ?? DEFAULT_PROVIDER,
      captureContent: options.captureContent === true,
      legacyNames: options.legacyAttributes === true,
      report,
    });
  return {
    startCall: (redactor) => {
      try {
        return new CallSpan(resolve(), redactor);
      } catch (error) {
        // Telemetry never breaks a call.
        report(error, redactor);
        return undefined;
      }
    },
  };
}

export type { OpenTelemetryOptions } from './options.js';
export type { AttemptObserver, CallEnd, CallObserver, StreamEnd, Telemetry, TelemetryRedactor, TelemetryRequest } from '../core/telemetry.js';
