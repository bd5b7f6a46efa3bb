import type { ChatCompletionMessageParam, CompletionUsage } from 'unified-gateway';
import { modelOption, stringOption, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { resolvePrompt } from '../resolve-prompt.js';
import { tokenUsageLine } from '../token-usage.js';

/** `unified-gateway chat <prompt>`: one chat turn, streamed to stdout by default. */
export const chat: Command = {
  name: 'chat',
  summary: 'Send a prompt to a chat model and print the reply (streamed)',
  help: `Usage: unified-gateway chat <prompt> [--model M] [--system S] [--no-stream] [--usage]

Send one prompt to a chat model and print the reply as it arrives. With <prompt> '-',
or no <prompt> while stdin is a pipe, the prompt is read from stdin.

Options:
  --model M      The model id (default: $GATEWAY_MODEL; required if that is unset)
  --system S     A system message sent before the prompt
  --no-stream    Wait for the whole reply, then print it
  --usage        Print the token usage on stderr after the reply: input tokens
                 (cached ones named), output tokens (reasoning ones named), and
                 what the call cost as the gateway bills it (quota, USD, and
                 whether priced, billed or estimated; 'cost unknown' where the
                 gateway publishes no prices)

Examples:
  unified-gateway chat "Say hello in French" --model gpt-4o-mini
  GATEWAY_MODEL=gpt-4o-mini unified-gateway chat "Write a haiku about failover"
  git diff | unified-gateway chat --system "Review this diff" --model gpt-4o
  unified-gateway chat "Summarise" --model deepseek-chat --usage`,
  options: {
    model: { type: 'string', short: 'm' },
    system: { type: 'string' },
    'no-stream': { type: 'boolean' },
    usage: { type: 'boolean' },
  },
  argument: 'prompt',
  async run({ values, positionals, client, signal, io }) {
    const model = modelOption(values, io.env.GATEWAY_MODEL?.trim(), 'chat');
    if (!model) throw new UsageError('Missing model: pass --model or set the GATEWAY_MODEL environment variable', 'chat');
    const prompt = await resolvePrompt(positionals[0], io, 'chat');
    const system = stringOption(values, 'system');
    const messages: ChatCompletionMessageParam[] = [...(system ? [{ role: 'system' as const, content: system }] : []), { role: 'user', content: prompt }];

    if (values['no-stream']) {
      const { data: completion, cost } = await client().chat.completions.create({ model, messages }, { signal }).withResponse();
      const message = completion.choices[0]?.message;
      io.stdout.write(`${message?.content ?? message?.refusal ?? ''}\n`);
      if (values.usage) io.stderr.write(`${tokenUsageLine(completion.usage, cost)}\n`);
      return;
    }
    // Usage comes on a last chunk only when asked for.
    const streamOptions = values.usage ? { stream_options: { include_usage: true } } : {};
    const stream = await client().chat.completions.create({ model, messages, stream: true, ...streamOptions }, { signal });
    let usage: CompletionUsage | null | undefined;
    let endsInNewline = false;
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      const delta = chunk.choices[0]?.delta;
      const text = delta?.content ?? delta?.refusal;
      if (!text) continue;
      io.stdout.write(text);
      endsInNewline = text.endsWith('\n');
    }
    if (!endsInNewline) io.stdout.write('\n');
    // The client prices the call once the stream has ended (createClient gives it `cost` with --usage).
    if (values.usage) io.stderr.write(`${tokenUsageLine(usage, await stream.cost())}\n`);
  },
};
