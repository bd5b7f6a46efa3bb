import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The option table `node:util` parseArgs takes. */
export type OptionTable = NonNullable<ParseArgsConfig['options']>;

/** Options as parsed: strings and booleans by name (no option here is `multiple`). */
export type OptionValues = Record<string, string | boolean | undefined>;

/** A command line that was wrong or incomplete: usage on stderr, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** The command whose help to point at, when one was given. */
  readonly command: string | undefined;
  constructor(message: string, command?: string) {
    super(message);
    this.command = command;
  }
}

/** Options every command takes. There is deliberately no `--api-key`: see {@link refuseApiKey}. */
export const globalOptions = {
  'base-url': { type: 'string' },
  'backup-base-url': { type: 'string' },
  timeout: { type: 'string' },
  'max-retries': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const satisfies OptionTable;

/** The global options, as they appear in every help text. */
export const globalOptionsHelp = `Global options:
  --base-url URL          The gateway's base URL, ending in /v1 (default: $GATEWAY_BASE_URL)
  --backup-base-url URL   Used when the main base fails (default: $GATEWAY_BACKUP_BASE_URL)
  --timeout MS            Milliseconds per attempt (default: 600000)
  --max-retries N         Retries after the first attempt (default: 2)
  -h, --help              Show help
  --version               Print the version

The API key is read from GATEWAY_API_KEY only: there is no --api-key option, because keys
typed on a command line end up in shell history and process listings.`;

/**
 * Splits `argv` into the command name and the rest. Global options may come before the
 * command, so the options that take a value are skipped together with it.
 */
export function splitCommand(argv: readonly string[]): { command: string | undefined; rest: string[] } {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') return { command: argv[i + 1], rest: [...argv.slice(0, i), ...argv.slice(i + 2)] };
    if (!arg.startsWith('-') || arg === '-') return { command: arg, rest: [...argv.slice(0, i), ...argv.slice(i + 1)] };
    const name = arg.replace(/^--?/, '');
    const option = (globalOptions as OptionTable)[name];
    if (option?.type === 'string' && !arg.includes('=')) i++;
  }
  return { command: undefined, rest: [...argv] };
}

/** `--api-key` gets its own message: the point is to say why it does not exist. */
function refuseApiKey(args: readonly string[], command?: string): void {
  if (args.some((a) => a === '--api-key' || a.startsWith('--api-key='))) {
    throw new UsageError('There is no --api-key option: keys on a command line leak into shell history. Set the GATEWAY_API_KEY environment variable instead.', command);
  }
}

/**
 * `--timeout -5` as `--timeout=-5`: parseArgs takes a value that starts with a dash for an
 * option of its own and calls it "ambiguous"; no option here is a digit, so a dash followed
 * by a digit is always a (negative) value, which the option's own check then explains.
 */
function joinDashedValues(args: readonly string[], options: OptionTable): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') return [...joined, ...args.slice(i)];
    const next = args[i + 1];
    const long = arg.startsWith('--') ? arg.slice(2) : Object.keys(options).find((name) => arg === `-${options[name]?.short ?? ''}`);
    if (next !== undefined && /^-\.?\d/.test(next) && long !== undefined && options[long]?.type === 'string') {
      joined.push(`--${long}=${next}`);
      i++;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}

/**
 * Parses a command's arguments (its own options plus the global ones) strictly: an unknown
 * option or a missing value is a {@link UsageError}.
 */
export function parseCommandArgs(args: readonly string[], options: OptionTable, command?: string): { values: OptionValues; positionals: string[] } {
  refuseApiKey(args, command);
  const table = { ...globalOptions, ...options };
  try {
    const parsed = parseArgs({ args: joinDashedValues(args, table), options: table, strict: true, allowPositionals: true });
    return { values: parsed.values as OptionValues, positionals: parsed.positionals };
  } catch (error) {
    // parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes; keep its first sentence.
    const message = error instanceof Error ? (error.message.split(/\.\s/)[0] ?? error.message) : String(error);
    throw new UsageError(message.replace(/\.$/, ''), command);
  }
}

/**
 * Refuses positional arguments beyond the `accepted` one (a command's prompt or file),
 * naming them: a stray word is more likely a mistake (an unquoted prompt, a misspelt
 * option) than something to ignore. `helpCommand` is whose help the message points at.
 */
export function refuseExtraPositionals(positionals: readonly string[], accepted: string | undefined, command: string, helpCommand: string | undefined = command): void {
  const extra = positionals.slice(accepted ? 1 : 0);
  if (extra.length === 0) return;
  const named = extra.map((a) => `'${a}'`).join(', ');
  const takes = accepted ? `one <${accepted}>${accepted === 'prompt' ? ' (quote the prompt if it has spaces)' : ''}` : 'no arguments';
  throw new UsageError(`Unexpected argument${extra.length > 1 ? 's' : ''} ${named}: '${command}' takes ${takes}`, helpCommand);
}

/** A string option's value, if given (an empty value counts as not given). */
export function stringOption(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' && value.trim() ? value : undefined;
}

/**
 * `--model`: the id given, else `fallback` (a default model, or GATEWAY_MODEL). Given but
 * blank (`-m "$MODEL"` with the variable unset) is a {@link UsageError}: falling back would
 * quietly send the default, often paid, model.
 */
export function modelOption(values: OptionValues, fallback: string, command: string): string;
export function modelOption(values: OptionValues, fallback: string | undefined, command: string): string | undefined;
export function modelOption(values: OptionValues, fallback: string | undefined, command: string): string | undefined {
  const value = values.model;
  if (typeof value === 'string' && !value.trim()) throw new UsageError('Option --model is empty: pass a model id, or leave the option out for the default', command);
  return stringOption(values, 'model') ?? fallback;
}

/** A required string option, or a {@link UsageError} naming it. */
export function requireOption(values: OptionValues, name: string, command: string): string {
  const value = stringOption(values, name);
  if (value === undefined) throw new UsageError(`Missing required option --${name}`, command);
  return value;
}

/**
 * A whole-number option within bounds, or a {@link UsageError} saying what is expected
 * (`expected`, when given, words it for the option: "a positive number of milliseconds").
 * @example integerOption(values, 'max-retries', { min: 0 }, 'chat')
 */
export function integerOption(values: OptionValues, name: string, bounds: { min: number; max?: number; expected?: string }, command?: string): number | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < bounds.min || (bounds.max !== undefined && n > bounds.max)) {
    const range = bounds.max === undefined ? `>= ${bounds.min}` : `from ${bounds.min} to ${bounds.max}`;
    throw new UsageError(`Option --${name} must be ${bounds.expected ?? `a whole number ${range}`}, got '${text}'`, command);
  }
  return n;
}
