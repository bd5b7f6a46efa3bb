import { ValidationError, type Gateway } from 'unified-gateway';
import { Redactor } from '../internal/redact.js';
import { parseCommandArgs, refuseExtraPositionals, splitCommand, UsageError } from './args.js';
import type { Command, CommandIO, TextOutput } from './command.js';
import { ConfigError, createClient } from './create-client.js';
import { chat } from './commands/chat.js';
import { image } from './commands/image.js';
import { models } from './commands/models.js';
import { probe } from './commands/probe.js';
import { transcribe } from './commands/transcribe.js';
import { video } from './commands/video.js';
import { commandHelp, readVersion, toolHelp } from './help.js';

/** Every command, in the order `--help` lists them. */
export const commands: readonly Command[] = [models, chat, image, video, transcribe, probe];

/** Exit codes, as documented in docs/cli.md. */
export const ExitCode = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/**
 * The streams, remembering whether the last text written to either ended a line. They share
 * a terminal (or a `2>&1` log), so a message after a reply cut mid-line (Ctrl-C, a broken
 * stream) must start a line of its own. A line redrawn with `\r` and cleared counts as ended.
 */
function trackLines(io: CommandIO): { io: CommandIO; midLine(): boolean } {
  let midLine = false;
  const track = (out: TextOutput): TextOutput => ({
    isTTY: out.isTTY,
    write(text: string) {
      // Trailing escape sequences (the progress display's erase-line) move no cursor forward.
      const end = text.replace(/(\x1b\[[0-9;]*[A-Za-z])+$/, '').at(-1);
      if (end !== undefined) midLine = end !== '\n' && end !== '\r';
      return out.write(text);
    },
  });
  return { io: { ...io, stdout: track(io.stdout), stderr: track(io.stderr) }, midLine: () => midLine };
}

/** The error as one line of stderr and the exit code it maps to. */
function report(error: unknown, signal: AbortSignal): { message: string; code: number } {
  if (error instanceof UsageError) {
    const help = error.command ? `unified-gateway ${error.command} --help` : 'unified-gateway --help';
    return { message: `unified-gateway: ${error.message}\nRun '${help}' for usage.`, code: ExitCode.usage };
  }
  if (error instanceof ConfigError) return { message: `unified-gateway: ${error.message}`, code: ExitCode.usage };
  if (signal.aborted) return { message: 'Aborted.', code: ExitCode.interrupted };
  // Caught before anything was sent: the arguments were wrong (e.g. a size the model lacks).
  if (ValidationError.isInstance(error)) return { message: `${error.name}: ${error.message}`, code: ExitCode.usage };
  // Messages that end by quoting the server ("failed: Out of credit.") add a period of their own.
  if (error instanceof Error) return { message: `${error.name}: ${error.message}`, code: ExitCode.failed };
  return { message: `Error: ${String(error)}`, code: ExitCode.failed };
}

/** Runs the command line `argv` (without `node` and the script) and resolves to its exit code. */
export async function runCli(argv: readonly string[], processIO: CommandIO, signal: AbortSignal): Promise<number> {
  const { io, midLine } = trackLines(processIO);
  const print = (text: string): number => {
    io.stdout.write(text);
    return ExitCode.ok;
  };
  const { command: name, rest } = splitCommand(argv);
  try {
    if (name === undefined) {
      const { values } = parseCommandArgs(rest, {});
      if (values.version) return print(`${readVersion()}\n`);
      if (values.help) return print(toolHelp(commands));
      io.stderr.write(toolHelp(commands));
      return ExitCode.usage;
    }
    // `unified-gateway help [command]`, as git and npm have it.
    if (name === 'help') {
      const { positionals } = parseCommandArgs(rest, {});
      refuseExtraPositionals(positionals, 'command', 'help', undefined);
      const topic = positionals[0];
      if (topic === undefined) return print(toolHelp(commands));
      return print(commandHelp(findCommand(topic)));
    }
    const command = findCommand(name);
    const { values, positionals } = parseCommandArgs(rest, command.options, command.name);
    if (values.help) return print(commandHelp(command));
    if (values.version) return print(`${readVersion()}\n`);
    refuseExtraPositionals(positionals, command.argument, command.name);
    let client: Gateway | undefined;
    await command.run({ values, positionals, signal, io, client: () => (client ??= createClient(values, io.env, command.name, { stderr: io.stderr, midLine })) });
    return ExitCode.ok;
  } catch (error) {
    const { message, code } = report(error, signal);
    // The SDK's errors are already free of the key; the CLI's own messages and anything else are not known to be.
    const redactor = new Redactor();
    const key = io.env.GATEWAY_API_KEY?.trim();
    if (key) redactor.add(key);
    io.stderr.write(`${midLine() ? '\n' : ''}${redactor.string(message)}\n`);
    return code;
  }
}

/** The command called `name`, or a {@link UsageError} listing the commands. */
function findCommand(name: string): Command {
  const command = commands.find((c) => c.name === name);
  if (!command) throw new UsageError(`Unknown command '${name}' (commands: ${commands.map((c) => c.name).join(', ')})`);
  return command;
}
