import type { Redactor } from '../internal/redact.js';
import type { CoreEvents } from './hooks.js';
import { formatLine } from './log-lines.js';

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
const eventLevels = { onRequest: 'debug', onResponse: 'debug', onRetry: 'info', onFailover: 'info', onModelFallback: 'info', onFleet: 'info', onCache: 'debug', onGiveUp: 'warn', onAdapt: 'debug' } as const;
type EventName = keyof typeof eventLevels;

/**
 * The logger as a subscriber of the same events as the hooks: `debug` logs every attempt
 * and response, `info` retries, failovers and model fallbacks, `warn` calls that failed
 * for good after a retry or a refused wait. Lines pass through the redactor.
 */
export function loggerEvents(logger: Logger, level: LogLevel, redactor: Redactor): CoreEvents {
  const rank = LOG_LEVELS.indexOf(level);
  const events: Record<string, (info: never) => void> = {};
  for (const name of Object.keys(eventLevels) as EventName[]) {
    if (rank < LOG_LEVELS.indexOf(eventLevels[name])) continue;
    events[name] = (info) => logger[eventLevels[name]](redactor.string(`[unified-gateway] ${formatLine(name, info)}`));
  }
  return events as CoreEvents;
}

/** Calls every subscriber's handler for each event, in order; a throwing handler propagates. */
export function combineEvents(...subscribers: CoreEvents[]): CoreEvents {
  type Handler = (info: unknown) => void;
  const out: Record<string, Handler> = {};
  for (const name of ['onRequest', 'onResponse', 'onRetry', 'onFailover', 'onModelFallback', 'onFleet', 'onCache', 'onGiveUp', 'onAdapt'] as const) {
    const handlers = subscribers.map((s) => s[name] as Handler | undefined).filter((h): h is Handler => typeof h === 'function');
    if (handlers.length > 0) out[name] = handlers.length === 1 ? (handlers[0] as Handler) : (info) => handlers.forEach((h) => h(info));
  }
  return out as CoreEvents;
}
