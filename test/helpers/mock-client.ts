import { Gateway, type GatewayOptions } from '../../src/index.js';
import { createMockGateway, type MockGatewayOptions } from '../../src/testing/index.js';
import { fastRetries } from './fixtures.js';

/** A mock gateway and a client talking to it through mock.fetch (no sockets), retries paced at 0 ms. */
export function mockClient(mockOptions: MockGatewayOptions = {}, clientOptions: GatewayOptions = {}) {
  const mock = createMockGateway({ apiKey: 'test-key', ...mockOptions });
  const client = new Gateway(fastRetries({ apiKey: 'test-key', baseURL: 'http://mock.local/v1', fetch: mock.fetch, ...clientOptions }));
  return { mock, client };
}

/** A 1×1 PNG. */
export const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
