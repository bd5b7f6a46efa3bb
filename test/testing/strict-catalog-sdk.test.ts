import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BadRequestError, defineTool, Gateway } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';

// The SDK against the strict catalogue, where it already works today: runTools keeps the
// reasoning and the tool calls (with their extra_content) that these families demand back.
// Families it does not handle yet (index-less Gemini deltas, reasoning_details,
// thinking_blocks, Groq's `reasoning`) are proved on the wire in strict-catalog.test.ts.

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  run: ({ city }) => `14 C in ${city}`,
});

function client() {
  const mock = createMockGateway({ catalog: 'strict' });
  return { mock, client: new Gateway({ apiKey: 'test-key', baseURL: 'http://mock.local/v1', fetch: mock.fetch, maxRetries: 0 }) };
}

describe('runTools against the strict catalogue', () => {
  it.for(['deepseek-reasoner', 'kimi-k2-thinking', 'gemini-3-pro-preview'])('%s: a two-step tool loop without a 400', async (model) => {
    const { mock, client: gateway } = client();
    const { completion } = await gateway.chat.completions.runTools({ model, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [getWeather] }, { maxTurns: 3 });
    expect(completion.choices[0]?.message.content).toBe('The tool returned: 14 C in Paris');
    expect(mock.requests.filter((r) => r.path === 'chat/completions')).toHaveLength(2);
  });

  it('a broken rule surfaces as BadRequestError with the vendor’s words', async () => {
    const { client: gateway } = client();
    const err = await gateway.chat.completions
      .create({
        model: 'kimi-k2-thinking',
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: '14 C' },
        ],
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).message).toContain('thinking is enabled but reasoning_content is missing in assistant tool call message at index 1');
  });
});
