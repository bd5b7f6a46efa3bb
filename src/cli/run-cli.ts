import { ValidationError, type Gateway } from 'unified-gateway';
import { parseCommandArgs, splitCommand, UsageError } from './args.js';
import type { Command, CommandIO } from './command.js';
import { ConfigError, createClient } from './create-client.js';
import { chat } from './commands/chat.js';
import { image } from './commands/image.js';
import { models } from './commands/models.js';
import { transcribe } from './commands/transcribe.js';
import { video } from './commands/video.js';
import { commandHelp, readVersion, toolHelp } from './help.js';

/** Every command, in the order `--help` lists them. */
export const commands: readonly Command[] = [models, chat, image, video, transcribe];

/** Exit codes, as documented in docs/cli.md. */
export const ExitCode = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/** Removes the API key from text before it is printed, whatever produced the text. */
function redact(text: string, key: string | undefined): string {
  return key && key.trim().length >= 4 ? text.split(key.trim()).join('[REDACTED]') : text;
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
  if (error instanceof Error) return { message: `${error.name}: ${error.message}`, code: ExitCode.failed };
  return { message: `Error: ${String(error)}`, code: ExitCode.failed };
}

/** Runs the command line `argv` (without `node` and the script) and resolves to its exit code. */
export async function runCli(argv: readonly string[], io: CommandIO, signal: AbortSignal): Promise<number> {
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
    const topic = name === 'help' ? rest[0] : name;
    const command = topic === undefined ? undefined : commands.find((c) => c.name === topic);
    if (name === 'help' && topic === undefined) return print(toolHelp(commands));
    if (!command) throw new UsageError(`Unknown command '${topic}' (commands: ${commands.map((c) => c.name).join(', ')})`);
    if (name === 'help') return print(commandHelp(command));
    const { values, positionals } = parseCommandArgs(rest, command.options, command.name);
    if (values.help) return print(commandHelp(command));
    if (values.version) return print(`${readVersion()}\n`);
    let client: Gateway | undefined;
    await command.run({ values, positionals, signal, io, client: () => (client ??= createClient(values, io.env, command.name)) });
    return ExitCode.ok;
  } catch (error) {
    const { message, code } = report(error, signal);
    io.stderr.write(`${redact(message, io.env.GATEWAY_API_KEY)}\n`);
    return code;
  }
}
