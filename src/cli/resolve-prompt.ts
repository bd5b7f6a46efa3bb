import { UsageError } from './args.js';
import type { CommandIO } from './command.js';

/** Reads a stream to its end as UTF-8 text (the prompt from a pipe). */
export async function readText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The prompt: the argument, or stdin when the argument is `-`, or absent while stdin is
 * not a terminal (`echo hi | unified-gateway chat`).
 */
export async function resolvePrompt(given: string | undefined, io: CommandIO, command: string): Promise<string> {
  const fromStdin = given === '-' || (given === undefined && !io.stdin.isTTY);
  const prompt = fromStdin ? (await readText(io.stdin)).trim() : given;
  if (!prompt?.trim()) {
    throw new UsageError(fromStdin ? 'The prompt read from stdin is empty' : 'Missing <prompt> (give it as an argument, or pipe it in)', command);
  }
  return prompt;
}
