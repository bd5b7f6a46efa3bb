import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import { ValidationError } from '../index.js';
import { isRecord } from './values.js';

/** Options for {@link openTelemetry}. */
export interface OpenTelemetryOptions {
  /** Where spans go. @default the globally registered provider (`trace.getTracerProvider()`) */
  tracerProvider?: TracerProvider | undefined;
  /** Where metrics go. @default the globally registered provider (`metrics.getMeterProvider()`) */
  meterProvider?: MeterProvider | undefined;
  /**
   * Record prompts, replies and tool-call arguments on the call span
   * (`gen_ai.input.messages`, `gen_ai.output.messages`, `gen_ai.system_instructions`).
   * They often hold personal data: keep it off unless your backend may store them.
   * @default false
   */
  captureContent?: boolean | undefined;
  /** `gen_ai.provider.name` of every call. @default 'unified_gateway' */
  providerName?: string | undefined;
  /**
   * Also emit `gen_ai.system`, the deprecated name `gen_ai.provider.name` had up to v1.36 of
   * the GenAI conventions, for backends that still group by it.
   * @default false
   */
  legacyAttributes?: boolean | undefined;
}

/** Each option, and what it must be. */
const RULES: Readonly<Record<keyof OpenTelemetryOptions, (value: unknown) => string | undefined>> = {
  tracerProvider: (v) => (typeof (v as { getTracer?: unknown } | null)?.getTracer === 'function' ? undefined : 'must be a TracerProvider (an object with getTracer(), e.g. from @opentelemetry/sdk-trace-base)'),
  meterProvider: (v) => (typeof (v as { getMeter?: unknown } | null)?.getMeter === 'function' ? undefined : 'must be a MeterProvider (an object with getMeter(), e.g. from @opentelemetry/sdk-metrics)'),
  captureContent: (v) => (typeof v === 'boolean' ? undefined : 'must be true or false'),
  providerName: (v) => (typeof v === 'string' && v.trim() !== '' ? undefined : "must be a non-empty string such as 'openai'"),
  legacyAttributes: (v) => (typeof v === 'boolean' ? undefined : 'must be true or false'),
};

/**
 * Checks openTelemetry()'s options at once: a wrong provider would otherwise drop every span
 * without a word, and a misspelt option would be ignored.
 */
export function checkOptions(options: unknown): OpenTelemetryOptions {
  if (options === undefined) return {};
  if (!isRecord(options)) throw new ValidationError('options', 'must be an object such as { tracerProvider, meterProvider }');
  for (const [key, value] of Object.entries(options)) {
    if (!Object.hasOwn(RULES, key)) throw new ValidationError(key, `is not an option of openTelemetry() (it takes ${Object.keys(RULES).join(', ')})`);
    const broken = value === undefined ? undefined : RULES[key as keyof OpenTelemetryOptions](value);
    if (broken) throw new ValidationError(key, broken);
  }
  return options;
}
