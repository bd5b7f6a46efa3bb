import type { ChatCompletionMessageParam } from 'unified-gateway';
import { modelOption, stringOption, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { resolvePrompt } from '../resolve-prompt.js';

/** `unified-gateway chat <prompt>`: one chat turn, streamed to stdout by default. */
export const chat: Command = {
  name: 'chat',
  summary: 'Send a prompt to a chat model and print the reply (streamed)',
  help: `Usage: unified-gateway chat <prompt> [--model M] [--system S] [--no-stream]

Send one prompt to a chat model and print the reply as it arrives. With <prompt> '-',
or no <prompt> while stdin is a pipe, the prompt is read from stdin.

Options:
  --model M      The model id (default: $GATEWAY_MODEL; required if that is unset)
  --system S     A system message sent before the prompt
  --no-stream    Wait for the whole reply, then print it

Examples:
  unified-gateway chat "Say hello in French" --model gpt-4o-mini
  GATEWAY_MODEL=gpt-4o-mini unified-gateway chat "Write a haiku about failover"
  git diff | unified-gateway chat --system "Review this diff" --model gpt-4o`,
  options: {
    model: { type: 'string', short: 'm' },
    system: { type: 'string' },
    'no-stream': { type: 'boolean' },
  },
  argument: 'prompt',
  async run({ values, positionals, client, signal, io }) {
    const model = modelOption(values, io.env.GATEWAY_MODEL?.trim(), 'chat');
    if (!model) throw new UsageError('Missing model: pass --model or set the GATEWAY_MODEL environment variable', 'chat');
    const prompt = await resolvePrompt(positionals[0], io, 'chat');
    const system = stringOption(values, 'system');
    const messages: ChatCompletionMessageParam[] = [...(system ? [{ role: 'system' as const, content: system }] : []), { role: 'user', content: prompt }];

    if (values['no-stream']) {
      const completion = await client().chat.completions.create({ model, messages }, { signal });
      const message = completion.choices[0]?.message;
      io.stdout.write(`${message?.content ?? message?.refusal ?? ''}\n`);
      return;
    }
    const stream = await client().chat.completions.create({ model, messages, stream: true }, { signal });
    let endsInNewline = false;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      const text = delta?.content ?? delta?.refusal;
      if (!text) continue;
      io.stdout.write(text);
      endsInNewline = text.endsWith('\n');
    }
    if (!endsInNewline) io.stdout.write('\n');
  },
};
