import { describe, expect, it } from 'vitest';
import { Gateway, ValidationError } from '../../src/index.js';
import { openTelemetry } from '../../src/otel/index.js';
import { otelSDK } from './harness.js';

/** The ValidationError `make` throws, checked to name `field`. */
function refused(make: () => unknown, field: string): ValidationError {
  let caught: unknown;
  try {
    make();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ValidationError);
  expect((caught as ValidationError).field).toBe(field);
  return caught as ValidationError;
}

const loose = openTelemetry as (options?: unknown) => unknown;

describe('openTelemetry() refuses options it would silently ignore', () => {
  it('a provider that is not one (it would drop every span or metric)', () => {
    expect(refused(() => loose({ meterProvider: 'x' }), 'meterProvider').rule).toMatch(/getMeter/);
    expect(refused(() => loose({ tracerProvider: {} }), 'tracerProvider').rule).toMatch(/getTracer/);
    refused(() => loose({ tracerProvider: null }), 'tracerProvider');
  });

  it('captureContent that is not a boolean, an empty providerName, and options it does not know', () => {
    refused(() => loose({ captureContent: 'yes' }), 'captureContent');
    refused(() => loose({ providerName: '' }), 'providerName');
    refused(() => loose({ providerName: 7 }), 'providerName');
    refused(() => loose({ legacyAttributes: 'yes' }), 'legacyAttributes');
    expect(refused(() => loose({ tracer: {} }), 'tracer').rule).toMatch(/tracerProvider/);
    refused(() => loose('x'), 'options');
    refused(() => loose(null), 'options');
  });

  it('takes real providers, undefined values and no options at all', () => {
    const sdk = otelSDK();
    expect(() => openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, captureContent: true, providerName: 'openai', legacyAttributes: true })).not.toThrow();
    expect(() => openTelemetry({ tracerProvider: undefined, meterProvider: undefined })).not.toThrow();
    expect(() => openTelemetry()).not.toThrow();
  });
});

describe('new Gateway({ telemetry }) refuses what is not a telemetry', () => {
  const base = { apiKey: 'test-key-0123456789', baseURL: 'http://gateway.test/v1' };
  const make = (telemetry: unknown) => () => new Gateway({ ...base, telemetry: telemetry as never });

  it('an object without startCall (every call would fail later with "startCall is not a function")', () => {
    expect(refused(make({}), 'telemetry').rule).toMatch(/openTelemetry\(\)/);
    refused(make({ startCall: 'x' }), 'telemetry');
    refused(make('otel'), 'telemetry');
    refused(make(null), 'telemetry');
  });

  it('takes openTelemetry(), any object with startCall, and undefined', () => {
    expect(() => make(openTelemetry())()).not.toThrow();
    expect(() => make({ startCall: () => undefined })()).not.toThrow();
    expect(() => make(undefined)()).not.toThrow();
  });
});
