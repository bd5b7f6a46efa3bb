// Whether the runtime's fetch is traced already by an instrumentation that injects trace
// context into every request it sends: the OpenTelemetry undici instrumentation (and APM
// agents alike) listen to undici's diagnostics channel. Its traceparent is then the one the
// gateway gets (its HTTP span runs inside the attempt's span); ours would be a second one.

interface Channel {
  readonly hasSubscribers: boolean;
}

/** undici's `undici:request:create` channel; null where the runtime has no diagnostics_channel. */
let requestCreate: Channel | null | undefined;

/**
 * True when something listens to `undici:request:create` (Node's fetch). Read through
 * `process.getBuiltinModule` (Node 20.16+, Deno, Bun), so this entry imports no Node module:
 * in browsers and workers it is false, and the attempt carries our own traceparent.
 */
export function fetchIsInstrumented(): boolean {
  if (requestCreate === undefined) {
    try {
      const load = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
      const dc = load?.('node:diagnostics_channel') as { channel?: (name: string) => Channel } | undefined;
      requestCreate = dc?.channel?.('undici:request:create') ?? null;
    } catch {
      requestCreate = null;
    }
  }
  return requestCreate?.hasSubscribers === true;
}
