import { generateText, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createUnifiedGateway } from '../../src/ai-sdk/index.js';
import { Gateway } from '../../src/index.js';
import { families, familyFetch } from '../helpers/vendor-families.js';

// The two-step tool loop of test/resources/chat/families.test.ts through the AI SDK provider:
// each family's reasoning fields ride on the reasoning part's provider metadata (and Gemini's
// signature on the tool call's) and go back as they came, streamed and not.

const add = tool({ description: 'Adds', inputSchema: z.object({ a: z.number(), b: z.number() }), execute: async ({ a, b }) => a + b });

describe.each(families)('$name ($model) through the AI SDK', (family) => {
  it.each([false, true])('finishes the tool loop (stream: %s)', async (stream) => {
    const server = familyFetch(family);
    const gw = createUnifiedGateway({ client: new Gateway({ apiKey: 'sk-test-key-1234567890', baseURL: 'http://gw.local/v1', maxRetries: 0, fetch: server.fetch }) });
    const options = { model: gw(family.model), prompt: 'What is 2 + 2?', tools: { add }, stopWhen: stepCountIs(3) };
    let text: string;
    if (stream) {
      const errors: unknown[] = [];
      const result = streamText({ ...options, onError: ({ error }) => void errors.push(error) });
      await result.consumeStream();
      if (errors.length) throw errors[0];
      text = await result.text;
    } else {
      text = (await generateText(options)).text;
    }
    expect(text).toBe('Four.');
    expect(server.requests).toHaveLength(2);
    // The turn went back with fields the reply came with, nothing renamed or added (which of
    // them goes back is the model's rule: the server above says what the vendor needs).
    const sent = Object.keys(server.requests[1]?.messages[1] ?? {});
    expect(sent.filter((key) => !(key in family.toolTurn))).toEqual([]);
  });
});
