import type { Gateway } from 'unified-gateway';
import type { OptionTable, OptionValues } from './args.js';

/** Where a command reads and writes; the process's streams, or fakes. */
export interface CommandIO {
  stdout: NodeJS.WritableStream;
  /** Progress and messages; `isTTY` decides between a redrawn line and plain lines. */
  stderr: NodeJS.WritableStream & { isTTY?: boolean | undefined };
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
  run(context: CommandContext): Promise<void>;
}
