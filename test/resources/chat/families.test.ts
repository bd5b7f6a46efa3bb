import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { defineTool, Gateway, type ChatCompletionMessageParam } from '../../../src/index.js';
import { families, familyFetch } from '../../helpers/vendor-families.js';

// A two-step tool loop per vendor family, against a server that answers the vendor's 400 when
// its rule is broken: through runTools, and through a loop of the caller's own that pushes the
// reply's message back as it is (the recipe of docs/tools.md), streamed and not.

const add = defineTool({ name: 'add', parameters: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });
const question = (): ChatCompletionMessageParam[] => [{ role: 'user', content: 'What is 2 + 2?' }];
const clientFor = (family: (typeof families)[number]) => {
  const server = familyFetch(family);
  return { server, client: new Gateway({ apiKey: 'sk-test-key-1234567890', baseURL: 'http://gw.local/v1', maxRetries: 0, fetch: server.fetch }) };
};

describe.each(families)('$name ($model)', (family) => {
  it.each([false, true])('runTools finishes the loop (stream: %s)', async (stream) => {
    const { client, server } = clientFor(family);
    const { completion } = await client.chat.completions.runTools({ model: family.model, messages: question(), tools: [add], stream });
    expect(completion.choices[0]?.message.content).toBe('Four.');
    expect(server.requests).toHaveLength(2);
    // Only fields the reply came with go back (which of them is the model's rule).
    const sent = Object.keys(server.requests[1]?.messages[1] ?? {});
    expect(sent.filter((key) => !(key in family.toolTurn))).toEqual([]);
  });

  it.each([false, true])('a loop of your own that pushes the reply’s message back as it is finishes (stream: %s)', async (stream) => {
    const { client, server } = clientFor(family);
    const messages = question();
    for (let turn = 1; turn <= 3; turn++) {
      // parse() adds `parsed` and `parsed_arguments`: they must not reach the server.
      const message = stream
        ? (await (await client.chat.completions.parse({ model: family.model, messages, tools: [add], stream: true })).finalChatCompletion()).choices[0]?.message
        : (await client.chat.completions.parse({ model: family.model, messages, tools: [add] })).choices[0]?.message;
      if (!message) throw new Error('no message');
      messages.push(message);
      if (!message.tool_calls?.length) break;
      for (const call of message.tool_calls) messages.push({ role: 'tool', tool_call_id: call.id, content: String(call.function.parsed_arguments.a + call.function.parsed_arguments.b) });
    }
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Four.' });
    expect(server.requests).toHaveLength(2);
    const sentTurn = server.requests[1]?.messages[1] ?? {};
    expect(sentTurn).not.toHaveProperty('parsed');
    // The turn went back with the fields the reply came with, nothing renamed or added.
    const { refusal: _r, annotations: _a, ...fields } = family.toolTurn as Record<string, unknown>;
    expect(Object.keys(sentTurn).filter((k) => k !== 'refusal' && k !== 'annotations').sort()).toEqual(Object.keys(fields).sort());
  });
});
