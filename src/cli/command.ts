import type { Gateway } from 'unified-gateway';
import type { OptionTable, OptionValues } from './args.js';

/** Where text goes; the process's streams, or wrappers around them. */
export interface TextOutput {
  write(text: string): unknown;
  isTTY?: boolean | undefined;
}

/** Where a command reads and writes; the process's streams, or fakes. */
export interface CommandIO {
  stdout: TextOutput;
  /** Progress and messages; `isTTY` decides between a redrawn line and plain lines. */
  stderr: TextOutput;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean | undefined };
  env: NodeJS.ProcessEnv;
}

/** What a command's `run` gets: its parsed arguments, a client, the Ctrl-C signal and I/O. */
export interface CommandContext {
  values: OptionValues;
  positionals: string[];
  /** Builds the client on first call, so argument errors are reported before configuration errors. */
  client(): Gateway;
  /** Aborts on Ctrl-C (SIGINT). */
  signal: AbortSignal;
  io: CommandIO;
}

/** One subcommand: its options, its help text, and what it does. */
export interface Command {
  name: string;
  /** One line for the command list of `unified-gateway --help`. */
  summary: string;
  /** The full text of `unified-gateway <name> --help`, without the global options. */
  help: string;
  options: OptionTable;
  /** The one positional argument the command takes (`prompt`, `file`), if any; more are refused. */
  argument?: string;
  run(context: CommandContext): Promise<void>;
}
