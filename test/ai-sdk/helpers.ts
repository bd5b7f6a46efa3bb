import { createUnifiedGateway } from '../../src/ai-sdk/index.js';
import type { GatewayOptions } from '../../src/index.js';
import { mockClient } from '../helpers/mock-client.js';
import type { MockGatewayOptions } from '../../src/testing/index.js';

/** A provider over a client over the mock gateway (mock.fetch, no sockets), retries paced at 0 ms. */
export function mockProvider(mockOptions: MockGatewayOptions = {}, clientOptions: GatewayOptions = {}) {
  const { mock, client } = mockClient(mockOptions, clientOptions);
  return { mock, client, gw: createUnifiedGateway({ client }) };
}
