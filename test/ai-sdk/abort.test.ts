import { streamText, tool } from 'ai';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createUnifiedGateway } from '../../src/ai-sdk/index.js';
import { BASE, client } from '../helpers/fixtures.js';
import { useMswServer } from '../helpers/msw.js';
import { chunk, sseResponse, sseText } from '../helpers/sse.js';

const server = useMswServer();

/** A stream that sends `first` and then waits, silent, until the request is cancelled. */
function stalledAfter(first: string): Response {
  const bytes = new TextEncoder().encode(first);
  let sent = false;
  return sseResponse(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return new Promise<void>(() => undefined);
        sent = true;
        controller.enqueue(bytes);
      },
    }),
  );
}

describe('streamText stopped by its abort signal', () => {
  // ai 7 calls onError for an error part that arrives after Stop; ai 6 and
  // @ai-sdk/openai-compatible do not: one false error per Stop in an error tracker.
  it.each([
    ['without tools', {}],
    // With tools, ai 7's step reader is already waiting on the model's stream when Stop
    // comes, and calls onError for an error part before its abort check sees it.
    ['with tools', { tools: { lookup: tool({ inputSchema: z.object({}), execute: async () => 'x' }) } }],
  ])('calls onAbort and never onError (%s)', async (_, extra) => {
    server.use(http.post(`${BASE}/chat/completions`, () => stalledAfter(sseText([chunk('Hel'), chunk('lo')], { done: false }))));
    const gw = createUnifiedGateway({ client: client() });
    const controller = new AbortController();
    const errors: unknown[] = [];
    let aborts = 0;
    const result = streamText({
      model: gw('gpt-4o-mini'),
      prompt: 'x',
      ...extra,
      abortSignal: controller.signal,
      onError: ({ error }) => void errors.push(error),
      onAbort: () => void aborts++,
    });
    const types: string[] = [];
    for await (const part of result.fullStream) {
      types.push(part.type);
      // Stop once the reader waits on a silent stream, as a user's Stop button does.
      if (part.type === 'text-delta' && part.text === 'lo') setTimeout(() => controller.abort(), 0);
    }
    expect(errors).toEqual([]);
    expect(aborts).toBe(1);
    expect(types).not.toContain('error');
    expect(types.at(-1)).toBe('abort');
  });

  it('calls onAbort and never onError when stopped before the answer', async () => {
    const controller = new AbortController();
    server.use(
      http.post(`${BASE}/chat/completions`, async () => {
        controller.abort();
        return new Promise<Response>(() => undefined);
      }),
    );
    const gw = createUnifiedGateway({ client: client() });
    const errors: unknown[] = [];
    let aborts = 0;
    const result = streamText({ model: gw('gpt-4o-mini'), prompt: 'x', abortSignal: controller.signal, onError: ({ error }) => void errors.push(error), onAbort: () => void aborts++ });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(errors).toEqual([]);
    expect(aborts).toBe(1);
    expect(types).not.toContain('error');
  });
});
