import { Gateway, ValidationError, type Logger } from 'unified-gateway';
import { integerOption, stringOption, type OptionValues } from './args.js';
import type { TextOutput } from './command.js';

/** Missing or invalid configuration (key, base URL): exit code 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** The SDK's option names as a user of the CLI sets them. */
const configNames = {
  baseURL: 'base URL (--base-url or GATEWAY_BASE_URL)',
  backupBaseURL: 'backup base URL (--backup-base-url or GATEWAY_BACKUP_BASE_URL)',
} as const;
const isConfigName = (field: string): field is keyof typeof configNames => Object.hasOwn(configNames, field);

/** Longest delay a timer can hold (2^31 - 1 ms); the SDK refuses a longer timeout. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * A base URL must end in /v1 here. The SDK accepts any path (some gateways mount the API
 * elsewhere) and only hints at /v1 once a request has failed; a command line would by then
 * have sent a request, and a wrong base URL is configuration, exit code 2, like a missing one.
 */
function checkVersionPath(name: keyof typeof configNames, value: string | undefined): void {
  if (!value?.trim()) return;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return; // the constructor words the error for a malformed URL
  }
  if (!/\/v1\/*$/.test(url.pathname)) {
    throw new ConfigError(`Invalid ${configNames[name]}: must end in /v1 (e.g. ${url.origin}/v1), got '${value.trim()}'`);
  }
}

/** Where the SDK's log lines go: the CLI's stderr, and whether a line of output is still open there or on stdout. */
export interface LogOutput {
  stderr: TextOutput;
  midLine(): boolean;
}

/**
 * The SDK's log lines (GATEWAY_LOG) on the CLI's stderr, each on a line of its own: one
 * written while a streamed reply is mid-line starts a new line rather than cut into it.
 */
function lineLogger(out: LogOutput): Logger {
  const write = (line: string): void => void out.stderr.write(`${out.midLine() ? '\n' : ''}${line}\n`);
  return { error: write, warn: write, info: write, debug: write };
}

/**
 * The client for the global options. The SDK reads GATEWAY_API_KEY, GATEWAY_BASE_URL and
 * GATEWAY_BACKUP_BASE_URL itself; the checks here only reword its errors for a command line
 * (its messages speak of constructor options such as 'apiKey', which the CLI does not have).
 * `--usage` (chat) turns on the SDK's `cost`, so the line it prints has the call's cost.
 */
export function createClient(values: OptionValues, env: NodeJS.ProcessEnv, command: string, log?: LogOutput): Gateway {
  const timeout = integerOption(values, 'timeout', { min: 1, max: MAX_TIMEOUT_MS, expected: 'a positive whole number of milliseconds' }, command);
  const maxRetries = integerOption(values, 'max-retries', { min: 0, max: 100 }, command);
  const baseURL = stringOption(values, 'base-url');
  const backupBaseURL = stringOption(values, 'backup-base-url');
  if (!env.GATEWAY_API_KEY?.trim()) {
    throw new ConfigError('Missing API key: set the GATEWAY_API_KEY environment variable (there is no --api-key option, so the key stays out of shell history).');
  }
  if (!baseURL && !env.GATEWAY_BASE_URL?.trim()) {
    throw new ConfigError('Missing base URL: pass --base-url (it ends in /v1) or set the GATEWAY_BASE_URL environment variable.');
  }
  checkVersionPath('baseURL', baseURL ?? env.GATEWAY_BASE_URL);
  checkVersionPath('backupBaseURL', backupBaseURL ?? env.GATEWAY_BACKUP_BASE_URL);
  try {
    // The CLI reports the final error itself; the SDK's 'warn' lines would repeat it (and
    // break a progress line). GATEWAY_LOG, when set, is the SDK's to read.
    const logLevel = env.GATEWAY_LOG?.trim() ? undefined : 'error';
    const logger = log && lineLogger(log);
    // Priced only for --usage: a gateway without the accounting endpoints costs one warning (at GATEWAY_LOG=warn), never a failure.
    const cost = values.usage === true ? true : undefined;
    return new Gateway({ baseURL, backupBaseURL, timeout, maxRetries, logLevel, logger, cost });
  } catch (error) {
    // Whatever the constructor refuses is configuration: a malformed URL, a bad log level.
    if (ValidationError.isInstance(error) && isConfigName(error.field)) throw new ConfigError(`Invalid ${configNames[error.field]}: ${error.rule}`);
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
}
