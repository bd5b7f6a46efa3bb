import type { Histogram, Meter } from '@opentelemetry/api';
import { DURATION_BUCKETS, METRIC, TOKEN_BUCKETS } from './names.js';

/** The conventions' client metrics, with their bucket boundaries as advice to the SDK. */
export interface Instruments {
  operationDuration: Histogram;
  tokenUsage: Histogram;
  timeToFirstChunk: Histogram;
  timePerOutputChunk: Histogram;
}

export function createInstruments(meter: Meter): Instruments {
  const seconds = (name: string, description: string) => meter.createHistogram(name, { description, unit: 's', advice: { explicitBucketBoundaries: DURATION_BUCKETS } });
  return {
    operationDuration: seconds(METRIC.operationDuration, 'GenAI operation duration.'),
    tokenUsage: meter.createHistogram(METRIC.tokenUsage, { description: 'Number of input and output tokens used.', unit: '{token}', advice: { explicitBucketBoundaries: TOKEN_BUCKETS } }),
    timeToFirstChunk: seconds(METRIC.timeToFirstChunk, 'Time to receive the first chunk of a streamed answer.'),
    timePerOutputChunk: seconds(METRIC.timePerOutputChunk, 'Time between two chunks of a streamed answer.'),
  };
}
