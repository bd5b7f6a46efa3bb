import { describe, expect, it } from 'vitest';
import { Gateway, type ChatCompletionMessageParam, type CompletionUsage } from '../../src/index.js';
import { createMockGateway, type MockGatewayOptions } from '../../src/testing/index.js';

// The mock's prompt cache: a prefix marked with `cache_control` is written on one request and
// read by the next that repeats it, as `usage.prompt_tokens_details.cached_tokens`; with
// `cacheHints: 'drop'` it behaves as a gateway that strips the hints: cached tokens stay 0.

const system: ChatCompletionMessageParam = {
  role: 'system',
  content: [{ type: 'text', text: 'You answer questions about the attached manual. '.repeat(20), cache_control: { type: 'ephemeral' } }],
};

function setup(options: MockGatewayOptions = {}) {
  const mock = createMockGateway({ apiKey: 'test-key', ...options });
  const client = new Gateway({ apiKey: 'test-key', baseURL: 'http://mock.local/v1', fetch: mock.fetch, maxRetries: 0 });
  return { mock, client };
}

/** Three turns of one conversation; the usage of each. */
async function conversation(client: Gateway, hinted = true): Promise<CompletionUsage[]> {
  const messages: ChatCompletionMessageParam[] = [hinted ? system : { role: 'system', content: 'You answer questions about the attached manual. '.repeat(20) }];
  const usages: CompletionUsage[] = [];
  for (const question of ['How do I reset it?', 'And the warranty?', 'Thanks, bye.']) {
    messages.push({ role: 'user', content: question });
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    usages.push(completion.usage as CompletionUsage);
    messages.push({ role: 'assistant', content: completion.choices[0]?.message.content ?? '' });
  }
  return usages;
}

describe('the mock’s prompt cache', () => {
  it('reads the marked prefix on later turns: 0 cached tokens first, then the prefix’s tokens', async () => {
    const { client } = setup();
    const usages = await conversation(client);
    const cached = usages.map((u) => u.prompt_tokens_details?.cached_tokens);
    expect(cached[0]).toBe(0);
    // The system prompt: 140 words, plus 3 for the message.
    expect(cached[1]).toBe(143);
    expect(cached[2]).toBe(143);
    for (const u of usages) expect(u.prompt_tokens_details?.cached_tokens).toBeLessThanOrEqual(u.prompt_tokens);
  });

  it('reads the longest prefix written so far when the mark moves to the latest message', async () => {
    const { client } = setup();
    const first: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'one two three four', cache_control: { type: 'ephemeral' } }] },
    ];
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: first });
    const second: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'one two three four' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: [{ type: 'text', text: 'five', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
    ];
    const usage = (await client.chat.completions.create({ model: 'gpt-4o-mini', messages: second })).usage;
    // Be brief. (2) + one two three four (4) + 3 per message × 2.
    expect(usage?.prompt_tokens_details?.cached_tokens).toBe(12);
  });

  it('reports no cache figure for a request without hints, as before', async () => {
    const { client } = setup();
    const usages = await conversation(client, false);
    for (const u of usages) expect(u).not.toHaveProperty('prompt_tokens_details');
  });

  it('keeps entries per model', async () => {
    const { client } = setup();
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [system, { role: 'user', content: 'hi' }] });
    const other = await client.chat.completions.create({ model: 'gpt-4o', messages: [system, { role: 'user', content: 'hi' }] });
    expect(other.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
  });

  it("with cacheHints: 'drop', reports 0 cached tokens turn after turn, as a gateway that drops the hints", async () => {
    const { client } = setup({ cacheHints: 'drop' });
    const usages = await conversation(client);
    expect(usages.map((u) => u.prompt_tokens_details?.cached_tokens)).toEqual([0, 0, 0]);
  });

  it('reports it in a stream’s usage chunk too', async () => {
    const { client } = setup();
    const messages: ChatCompletionMessageParam[] = [system, { role: 'user', content: 'hi' }];
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true, stream_options: { include_usage: true } });
    expect((await stream.finalChatCompletion()).usage?.prompt_tokens_details?.cached_tokens).toBe(143);
  });

  it('is emptied by reset()', async () => {
    const { client, mock } = setup();
    const messages: ChatCompletionMessageParam[] = [system, { role: 'user', content: 'hi' }];
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    mock.reset();
    expect((await client.chat.completions.create({ model: 'gpt-4o-mini', messages })).usage?.prompt_tokens_details?.cached_tokens).toBe(0);
  });
});
