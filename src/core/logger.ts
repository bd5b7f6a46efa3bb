import type { Redactor } from '../internal/redact.js';
import type { CoreEvents } from './hooks.js';

/** How much the client logs. @default process.env.GATEWAY_LOG ?? 'warn' */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/**
 * Where log lines go: anything shaped like `console` (pino, winston and consola loggers
 * are). Each line is one string; it never contains the API key or the Authorization header.
 */
export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

/** The levels in order of detail; a level logs its own lines and those before it. */
export const LOG_LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];

/** The level at which each event is logged. */
const eventLevels = { onRequest: 'debug', onResponse: 'debug', onRetry: 'info', onFailover: 'info', onModelFallback: 'info', onGiveUp: 'warn' } as const;
type EventName = keyof typeof eventLevels;

/**
 * The logger as a subscriber of the same events as the hooks: `debug` logs every attempt
 * and response, `info` retries, failovers and model fallbacks, `warn` calls that failed
 * for good after a retry or a refused wait. Lines pass through the redactor. The wording
 * (log-lines.ts) loads on first use; events that come before it are queued and written in order.
 */
export function loggerEvents(logger: Logger, level: LogLevel, redactor: Redactor): CoreEvents {
  const rank = LOG_LEVELS.indexOf(level);
  let format: ((name: EventName, info: never) => string) | undefined;
  let queue: Array<[EventName, never]> | undefined = [];
  const write = (name: EventName, info: never) => logger[eventLevels[name]](redactor.string(`[unified-gateway] ${(format as NonNullable<typeof format>)(name, info)}`));
  const events: Record<string, (info: never) => void> = {};
  for (const name of Object.keys(eventLevels) as EventName[]) {
    if (rank >= LOG_LEVELS.indexOf(eventLevels[name])) events[name] = (info) => (format ? write(name, info) : queue?.push([name, info]));
  }
  if (Object.keys(events).length > 0) {
    import('./log-lines.js').then(
      (m) => {
        format = m.formatLine as typeof format;
        for (const [name, info] of queue ?? []) write(name, info);
        queue = undefined;
      },
      (error: unknown) => logger.error(`[unified-gateway] could not load the log formatter: ${String(error)}`),
    );
  }
  return events as CoreEvents;
}

/** Calls every subscriber's handler for each event, in order; a throwing handler propagates. */
export function combineEvents(...subscribers: CoreEvents[]): CoreEvents {
  type Handler = (info: unknown) => void;
  const out: Record<string, Handler> = {};
  for (const name of ['onRequest', 'onResponse', 'onRetry', 'onFailover', 'onModelFallback', 'onGiveUp'] as const) {
    const handlers = subscribers.map((s) => s[name] as Handler | undefined).filter((h): h is Handler => typeof h === 'function');
    if (handlers.length > 0) out[name] = handlers.length === 1 ? (handlers[0] as Handler) : (info) => handlers.forEach((h) => h(info));
  }
  return out as CoreEvents;
}
