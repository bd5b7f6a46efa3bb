import type { ServeOptions, Served } from './node-server.js';

/**
 * `listen()` where there is no node:http (browsers, edge workers): the testing entry's
 * default build swaps this in, so it bundles for a worker. Use `mock.fetch` there, as the
 * client's `fetch` or inside msw.
 */
export function serve(_handler: (request: Request) => Promise<Response>, _options?: ServeOptions): Promise<Served> {
  return Promise.reject(
    new Error("mock.listen() needs Node's node:http (Node, Deno or Bun). In a browser or an edge worker, pass mock.fetch as the client's fetch, or serve it from msw."),
  );
}
