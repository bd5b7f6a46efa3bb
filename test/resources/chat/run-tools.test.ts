import * as z from 'zod';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { APIUserAbortError, defineTool, ToolRunLimitError, ValidationError, type ToolRunStep } from '../../../src/index.js';
import { mockClient } from '../../helpers/mock-client.js';

const messages = [{ role: 'user' as const, content: 'Weather in Oslo and Paris?' }];

function tools() {
  const calls: string[] = [];
  const getWeather = defineTool({
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: z.object({ city: z.string() }),
    run: async ({ city }) => {
      expectTypeOf(city).toEqualTypeOf<string>();
      calls.push(city);
      return { city, celsius: city.length };
    },
  });
  return { getWeather, calls };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('chat.completions.runTools', () => {
  it('loops until the model answers without tool calls, running each turn’s calls and returning the transcript', async () => {
    const { getWeather, calls } = tools();
    const { client, mock } = mockClient();
    mock.script([{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }, { name: 'get_weather', arguments: { city: 'Paris' } }] }, { content: 'Oslo 4, Paris 5.' }]);
    const steps: ToolRunStep[] = [];
    const { completion, messages: transcript } = await client.chat.completions.runTools({ model: 'gpt-4o-mini', messages, tools: [getWeather] }, { onStep: (s) => void steps.push(s) });
    expect(completion.choices[0]?.message.content).toBe('Oslo 4, Paris 5.');
    expect(calls.sort()).toEqual(['Oslo', 'Paris']);
    expect(transcript.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(transcript[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_1_0', content: '{"city":"Oslo","celsius":4}' });
    expect(steps.map((s) => [s.turn, s.toolResults.length])).toEqual([
      [1, 2],
      [2, 0],
    ]);
    expect(steps[0]?.toolResults[0]).toMatchObject({ name: 'get_weather', args: { city: 'Oslo' }, result: { city: 'Oslo', celsius: 4 }, error: undefined });
    // The second request carried the tool results back.
    expect((mock.requests[1]?.body as { messages: unknown[] }).messages).toHaveLength(4);
  });

  it('runs the independent calls of one turn concurrently', async () => {
    // On the fake clock each call takes 30 ms: run together, all three are under way before
    // the first ends; run one after another, never more than one.
    vi.useFakeTimers();
    let running = 0;
    let most = 0;
    let started!: () => void;
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    const slow = defineTool({
      name: 'slow',
      parameters: z.object({ n: z.number() }),
      run: async ({ n }) => {
        most = Math.max(most, ++running);
        started();
        await new Promise((r) => setTimeout(r, 30));
        running--;
        return n;
      },
    });
    const { client, mock } = mockClient();
    mock.script([{ toolCalls: [1, 2, 3].map((n) => ({ name: 'slow', arguments: { n } })) }, { content: 'done' }]);
    const done = client.chat.completions.runTools({ model: 'gpt-4o-mini', messages, tools: [slow] });
    await firstStarted;
    await vi.runAllTimersAsync();
    await done;
    expect(most).toBe(3);
  });

  it('sends a thrown error, invalid JSON, failed validation and an unknown tool back to the model as text', async () => {
    const failing = defineTool({
      name: 'get_weather',
      parameters: z.object({ city: z.string() }),
      run: () => {
        throw new Error('weather service down');
      },
    });
    const { client, mock } = mockClient();
    mock.script([
      {
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Oslo' } },
          { name: 'get_weather', arguments: '{"city":' },
          { name: 'get_weather', arguments: { city: 7 } },
          { name: 'get_time', arguments: {} },
        ],
      },
      { content: 'Sorry.' },
    ]);
    const { messages: transcript } = await client.chat.completions.runTools({ model: 'gpt-4o-mini', messages, tools: [failing] });
    const results = transcript.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[0]).toBe('Error: get_weather failed: weather service down');
    expect(results[1]).toMatch(/^Error: invalid arguments for get_weather: .*not valid JSON/);
    expect(results[2]).toMatch(/^Error: invalid arguments for get_weather: city: /);
    expect(results[3]).toBe('Error: there is no tool named "get_time"; the tools are get_weather.');
  });

  it('rejects with ToolRunLimitError, keeping the transcript, past maxTurns model calls', async () => {
    const { getWeather, calls } = tools();
    const { client, mock } = mockClient();
    mock.script(Array.from({ length: 5 }, () => ({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] })));
    const err = await client.chat.completions.runTools({ model: 'gpt-4o-mini', messages, tools: [getWeather] }, { maxTurns: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolRunLimitError);
    expect(mock.requests).toHaveLength(2);
    expect(calls).toEqual(['Oslo']);
    expect((err as ToolRunLimitError).messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('aborts during a turn, and between turns', async () => {
    const controller = new AbortController();
    let ran!: () => void;
    const running = new Promise<void>((resolve) => (ran = resolve));
    const hang = defineTool({ name: 'hang', parameters: z.object({}), run: () => (ran(), new Promise(() => undefined)) });
    const { client, mock } = mockClient();
    mock.script([{ toolCalls: [{ name: 'hang', arguments: {} }] }]);
    const during = client.chat.completions.runTools({ model: 'gpt-4o-mini', messages, tools: [hang] }, { signal: controller.signal });
    // Aborted while the tool runs, not 20 ms in (which could still be the model call).
    await running;
    controller.abort();
    await expect(during).rejects.toBeInstanceOf(APIUserAbortError);

    const between = new AbortController();
    const { getWeather } = tools();
    mock.script([{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }, { content: 'never asked' }]);
    const before = mock.requests.length;
    const err = await client.chat.completions
      .runTools({ model: 'gpt-4o-mini', messages, tools: [getWeather] }, { signal: between.signal, onStep: () => between.abort() })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIUserAbortError);
    expect(mock.requests.length - before).toBe(1);
  });

  it('streams every turn when asked, handing each chunk to onChunk', async () => {
    const { getWeather } = tools();
    const { client, mock } = mockClient();
    mock.script([{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }, { content: 'It is 4 degrees in Oslo.' }]);
    const onChunk = vi.fn();
    const { completion } = await client.chat.completions.runTools({ model: 'gpt-4o-mini', messages, tools: [getWeather], stream: true }, { onChunk });
    expect(completion.choices[0]?.message.content).toBe('It is 4 degrees in Oslo.');
    expect(onChunk.mock.calls.length).toBeGreaterThan(4);
    expect(mock.requests.every((r) => (r.body as { stream?: boolean }).stream === true)).toBe(true);
  });

  it('checks its arguments before sending anything', async () => {
    const { client, mock } = mockClient();
    const plain = { type: 'function' as const, function: { name: 'x', parameters: {} } };
    await expect(client.chat.completions.runTools({ model: 'gpt-4o-mini', messages, tools: [plain as never] })).rejects.toMatchObject({ field: 'tools[0]' });
    await expect(client.chat.completions.runTools({ model: 'gpt-4o-mini', messages, tools: [tools().getWeather] }, { maxTurns: 0 })).rejects.toBeInstanceOf(ValidationError);
    expect(mock.requests).toHaveLength(0);
  });
});
