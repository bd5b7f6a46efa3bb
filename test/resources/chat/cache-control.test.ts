import { describe, expect, it } from 'vitest';
import type { ChatCompletionMessageParam } from '../../../src/index.js';
import { mockClient } from '../../helpers/mock-client.js';

// Prompt-caching hints (`cache_control`, as Anthropic-style vendors take them behind an
// OpenAI-compatible gateway) are typed on every kind of content part and go out unchanged.

describe('cache_control hints', () => {
  it('are typed on the text and image parts of every role and sent as given', async () => {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: [{ type: 'text', text: 'A long manual…', cache_control: { type: 'ephemeral' } }] },
      { role: 'developer', content: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is on this page?', cache_control: { type: 'ephemeral', ttl: '5m' } },
          { type: 'image_url', image_url: { url: 'https://example.com/page.png' }, cache_control: { type: 'ephemeral' } },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'A table.', cache_control: { type: 'ephemeral' } }] },
      { role: 'user', content: 'And below it?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: 'A chart.', cache_control: { type: 'ephemeral' } }] },
    ];
    const { client, mock } = mockClient();
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    expect((mock.requests[0]?.body as { messages: unknown }).messages).toEqual(messages);
  });
});
