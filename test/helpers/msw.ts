import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** One msw server per test file: unknown requests fail the test; handlers reset after each test. */
export function useMswServer() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** What a handler saw, for assertions on the outgoing request. */
export interface Recorded {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Records every request passed to `record`, JSON bodies parsed. */
export function createRecorder() {
  const calls: Recorded[] = [];
  return {
    calls,
    async record(request: Request): Promise<Recorded> {
      const text = await request.clone().text();
      const headers: Record<string, string> = {};
      request.headers.forEach((v, k) => (headers[k] = v));
      const entry = { method: request.method, url: request.url, headers, body: text ? (JSON.parse(text) as unknown) : undefined };
      calls.push(entry);
      return entry;
    },
  };
}
