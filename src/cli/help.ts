import { createRequire } from 'node:module';
import { globalOptionsHelp } from './args.js';
import type { Command } from './command.js';

/** The package's version, read from its own package.json (the package refers to itself by name). */
export function readVersion(): string {
  const pkg: unknown = createRequire(import.meta.url)('unified-gateway/package.json');
  const version = typeof pkg === 'object' && pkg !== null && 'version' in pkg ? pkg.version : undefined;
  return typeof version === 'string' ? version : 'unknown';
}

/** The text of `unified-gateway --help`. */
export function toolHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  const list = commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`).join('\n');
  return `Usage: unified-gateway <command> [arguments] [options]

The command line of unified-gateway: the unified model gateway's OpenAI-compatible API
from a shell.

Commands:
${list}

Run 'unified-gateway <command> --help' for a command's options and examples.

${globalOptionsHelp}

Environment:
  GATEWAY_API_KEY           The API key (required)
  GATEWAY_BASE_URL          The base URL, ending in /v1 (or --base-url)
  GATEWAY_BACKUP_BASE_URL   A backup base URL, used when the main one fails (optional)
  GATEWAY_MODEL             The default model of 'chat'
  GATEWAY_LOG               The SDK's log level: off, error, warn (default), info, debug

Exit codes:
  0    success
  1    the gateway or the network failed (an API error, a timeout, a failed task)
  2    bad arguments or configuration
  130  interrupted (Ctrl-C)
`;
}

/** The text of `unified-gateway <command> --help`. */
export function commandHelp(command: Command): string {
  return `${command.help}\n\n${globalOptionsHelp}\n`;
}
