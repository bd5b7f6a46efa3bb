import type { APICallError, LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { readFileSync } from 'node:fs';
import { stepCountIs, streamText, tool } from 'ai';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createUnifiedGateway } from '../../src/ai-sdk/index.js';
import { StreamInterruptedError, type ChatCompletion } from '../../src/index.js';
import { BASE, client } from '../helpers/fixtures.js';
import { useMswServer } from '../helpers/msw.js';
import { sseResponse } from '../helpers/sse.js';

// The converter's exact output, pinned, as @ai-sdk/openai-compatible pins its own: each
// fixture is a stream in the shape a family of servers sends it (OpenAI's usage chunk without
// choices, DeepSeek's reasoning_content, an OpenRouter-style `reasoning`, a backend that
// repeats the tool call's id and name, new-api's error frame and `: PING`; written from
// their documented formats, not captured live), one chunk per line, `:` lines SSE comments;
// each test, the stream parts the language model makes of it, as an inline snapshot.
const server = useMswServer();

const prompt: LanguageModelV3CallOptions['prompt'] = [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }];

/**
 * Serves `__fixtures__/<name>.chunks.txt` as the chat endpoint's event stream, `[DONE]` last
 * unless `done: false`. With `cutAfter: n`, the connection breaks after the first n lines,
 * as undici reports a socket closed mid-body; `cutTimes` says for how many requests (the
 * next ones get the whole stream). Returns how many requests it has answered.
 */
function serveChunks(name: string, { done = true, cutAfter, cutTimes = Infinity }: { done?: boolean; cutAfter?: number; cutTimes?: number } = {}): () => number {
  const lines = readFileSync(new URL(`./__fixtures__/${name}.chunks.txt`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0);
  const events = lines.map((line) => (line.startsWith(':') ? `${line}\n\n` : `data: ${line}\n\n`));
  if (done) events.push('data: [DONE]\n\n');
  let answered = 0;
  server.use(
    http.post(`${BASE}/chat/completions`, () => {
      const before = answered++;
      if (cutAfter === undefined || before >= cutTimes) return sseResponse(events.join(''));
      const bytes = new TextEncoder().encode(events.slice(0, cutAfter).join(''));
      let sent = false;
      // Pulled one read at a time (no queue): an error discards what is queued, and the
      // reader has taken the bytes before it asks again.
      const body = new ReadableStream<Uint8Array>({ pull: (c) => (sent ? c.error(new TypeError('terminated')) : ((sent = true), c.enqueue(bytes))) }, { highWaterMark: 0 });
      return sseResponse(body);
    }),
  );
  return () => answered;
}

const model = (): LanguageModelV3 => createUnifiedGateway({ client: client() })('gpt-4o-mini');

async function parts(options: Partial<LanguageModelV3CallOptions> = {}): Promise<LanguageModelV3StreamPart[]> {
  const { stream } = await model().doStream({ prompt, ...options });
  const out: LanguageModelV3StreamPart[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) out.push(next.value);
  return out;
}

describe('doStream stream parts', () => {
  it('text: a role-only first chunk, a keep-alive comment, usage in a last chunk without choices', async () => {
    serveChunks('text');
    expect(await parts()).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "chatcmpl-BxT1",
          "modelId": "gpt-4o-mini-2024-07-18",
          "timestamp": 2026-01-01T00:00:00.000Z,
          "type": "response-metadata",
        },
        {
          "id": "text-0",
          "type": "text-start",
        },
        {
          "delta": "Hello",
          "id": "text-0",
          "type": "text-delta",
        },
        {
          "delta": ", World",
          "id": "text-0",
          "type": "text-delta",
        },
        {
          "delta": "!",
          "id": "text-0",
          "type": "text-delta",
        },
        {
          "id": "text-0",
          "type": "text-end",
        },
        {
          "finishReason": {
            "raw": "stop",
            "unified": "stop",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": 0,
              "cacheWrite": undefined,
              "noCache": 12,
              "total": 12,
            },
            "outputTokens": {
              "reasoning": 0,
              "text": 4,
              "total": 4,
            },
            "raw": {
              "completion_tokens": 4,
              "completion_tokens_details": {
                "accepted_prediction_tokens": 0,
                "audio_tokens": 0,
                "reasoning_tokens": 0,
                "rejected_prediction_tokens": 0,
              },
              "prompt_tokens": 12,
              "prompt_tokens_details": {
                "audio_tokens": 0,
                "cached_tokens": 0,
              },
              "total_tokens": 16,
            },
          },
        },
      ]
    `);
  });

  it('reasoning in reasoning_content, then text; cached and reasoning tokens', async () => {
    serveChunks('reasoning-content');
    expect(await parts()).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "5f0e3c1a-7d2b-4a51-9b0e-2f1c8d3a6e40",
          "modelId": "deepseek-reasoner",
          "timestamp": 2026-01-01T00:00:01.000Z,
          "type": "response-metadata",
        },
        {
          "id": "reasoning-0",
          "type": "reasoning-start",
        },
        {
          "delta": "The user",
          "id": "reasoning-0",
          "type": "reasoning-delta",
        },
        {
          "delta": " greets me.",
          "id": "reasoning-0",
          "type": "reasoning-delta",
        },
        {
          "id": "reasoning-0",
          "providerMetadata": {
            "unifiedGateway": {
              "model": "gpt-4o-mini",
              "reasoningField": "reasoning_content",
            },
          },
          "type": "reasoning-end",
        },
        {
          "id": "text-0",
          "type": "text-start",
        },
        {
          "delta": "Hi",
          "id": "text-0",
          "type": "text-delta",
        },
        {
          "delta": " there.",
          "id": "text-0",
          "type": "text-delta",
        },
        {
          "id": "text-0",
          "type": "text-end",
        },
        {
          "finishReason": {
            "raw": "stop",
            "unified": "stop",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": 16,
              "cacheWrite": undefined,
              "noCache": 4,
              "total": 20,
            },
            "outputTokens": {
              "reasoning": 11,
              "text": 4,
              "total": 15,
            },
            "raw": {
              "completion_tokens": 15,
              "completion_tokens_details": {
                "reasoning_tokens": 11,
              },
              "prompt_cache_hit_tokens": 16,
              "prompt_cache_miss_tokens": 4,
              "prompt_tokens": 20,
              "prompt_tokens_details": {
                "cached_tokens": 16,
              },
              "total_tokens": 35,
            },
          },
        },
      ]
    `);
  });

  it('reasoning in reasoning, then text; usage after the finish', async () => {
    serveChunks('reasoning-field');
    expect(await parts()).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "gen-1767225602-AbCdEf",
          "modelId": "moonshotai/kimi-k2-thinking",
          "timestamp": 2026-01-01T00:00:02.000Z,
          "type": "response-metadata",
        },
        {
          "id": "reasoning-0",
          "type": "reasoning-start",
        },
        {
          "delta": "Two",
          "id": "reasoning-0",
          "type": "reasoning-delta",
        },
        {
          "delta": " plus two.",
          "id": "reasoning-0",
          "type": "reasoning-delta",
        },
        {
          "id": "reasoning-0",
          "providerMetadata": {
            "unifiedGateway": {
              "model": "gpt-4o-mini",
              "reasoningField": "reasoning",
              "reasoning_details": [
                {
                  "format": "unknown",
                  "index": 0,
                  "text": "Two plus two.",
                  "type": "reasoning.text",
                },
              ],
            },
          },
          "type": "reasoning-end",
        },
        {
          "id": "text-0",
          "type": "text-start",
        },
        {
          "delta": "4",
          "id": "text-0",
          "type": "text-delta",
        },
        {
          "id": "text-0",
          "type": "text-end",
        },
        {
          "finishReason": {
            "raw": "stop",
            "unified": "stop",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": undefined,
              "cacheWrite": undefined,
              "noCache": 9,
              "total": 9,
            },
            "outputTokens": {
              "reasoning": 5,
              "text": 1,
              "total": 6,
            },
            "raw": {
              "completion_tokens": 6,
              "completion_tokens_details": {
                "reasoning_tokens": 5,
              },
              "prompt_tokens": 9,
              "total_tokens": 15,
            },
          },
        },
      ]
    `);
  });

  it('two tool calls, their arguments in pieces', async () => {
    serveChunks('tool-calls');
    expect(await parts()).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "chatcmpl-BxT3",
          "modelId": "gpt-4o-mini-2024-07-18",
          "timestamp": 2026-01-01T00:00:03.000Z,
          "type": "response-metadata",
        },
        {
          "id": "call_O17Uplv4lJvD6DVdIvFFeRMw",
          "toolName": "get_weather",
          "type": "tool-input-start",
        },
        {
          "delta": "{"ci",
          "id": "call_O17Uplv4lJvD6DVdIvFFeRMw",
          "type": "tool-input-delta",
        },
        {
          "delta": "ty": "Lisbon"}",
          "id": "call_O17Uplv4lJvD6DVdIvFFeRMw",
          "type": "tool-input-delta",
        },
        {
          "id": "call_9cUq2Yw3GZ6yVh0XkL5tRb1a",
          "toolName": "get_time",
          "type": "tool-input-start",
        },
        {
          "delta": "{"zone": "Europe/Lisbon"}",
          "id": "call_9cUq2Yw3GZ6yVh0XkL5tRb1a",
          "type": "tool-input-delta",
        },
        {
          "id": "call_O17Uplv4lJvD6DVdIvFFeRMw",
          "type": "tool-input-end",
        },
        {
          "input": "{"city": "Lisbon"}",
          "toolCallId": "call_O17Uplv4lJvD6DVdIvFFeRMw",
          "toolName": "get_weather",
          "type": "tool-call",
        },
        {
          "id": "call_9cUq2Yw3GZ6yVh0XkL5tRb1a",
          "type": "tool-input-end",
        },
        {
          "input": "{"zone": "Europe/Lisbon"}",
          "toolCallId": "call_9cUq2Yw3GZ6yVh0XkL5tRb1a",
          "toolName": "get_time",
          "type": "tool-call",
        },
        {
          "finishReason": {
            "raw": "tool_calls",
            "unified": "tool-calls",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": 64,
              "cacheWrite": undefined,
              "noCache": 16,
              "total": 80,
            },
            "outputTokens": {
              "reasoning": 0,
              "text": 40,
              "total": 40,
            },
            "raw": {
              "completion_tokens": 40,
              "completion_tokens_details": {
                "reasoning_tokens": 0,
              },
              "prompt_tokens": 80,
              "prompt_tokens_details": {
                "cached_tokens": 64,
              },
              "total_tokens": 120,
            },
          },
        },
      ]
    `);
  });

  it('text, then a tool call whose id and name come again in every delta', async () => {
    serveChunks('tool-name-repeated');
    expect(await parts()).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "chatcmpl-20260101000004",
          "modelId": "qwen-plus",
          "timestamp": 2026-01-01T00:00:04.000Z,
          "type": "response-metadata",
        },
        {
          "id": "text-0",
          "type": "text-start",
        },
        {
          "delta": "Let me check.",
          "id": "text-0",
          "type": "text-delta",
        },
        {
          "id": "text-0",
          "type": "text-end",
        },
        {
          "id": "call_5b1e",
          "toolName": "get_weather",
          "type": "tool-input-start",
        },
        {
          "delta": "{"city":",
          "id": "call_5b1e",
          "type": "tool-input-delta",
        },
        {
          "delta": " "Oslo"}",
          "id": "call_5b1e",
          "type": "tool-input-delta",
        },
        {
          "id": "call_5b1e",
          "type": "tool-input-end",
        },
        {
          "input": "{"city": "Oslo"}",
          "toolCallId": "call_5b1e",
          "toolName": "get_weather",
          "type": "tool-call",
        },
        {
          "finishReason": {
            "raw": "tool_calls",
            "unified": "tool-calls",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": undefined,
              "cacheWrite": undefined,
              "noCache": 30,
              "total": 30,
            },
            "outputTokens": {
              "reasoning": undefined,
              "text": 12,
              "total": 12,
            },
            "raw": {
              "completion_tokens": 12,
              "prompt_tokens": 30,
              "total_tokens": 42,
            },
          },
        },
      ]
    `);
  });

  it('an error frame after text: the text, an error part, a finish with the error reason', async () => {
    serveChunks('error-frame', { done: false });
    expect(await parts()).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "chatcmpl-BxT5",
          "modelId": "gpt-4o-mini",
          "timestamp": 2026-01-01T00:00:05.000Z,
          "type": "response-metadata",
        },
        {
          "id": "text-0",
          "type": "text-start",
        },
        {
          "delta": "Once upon",
          "id": "text-0",
          "type": "text-delta",
        },
        {
          "error": [AI_APICallError: 200 do_request_failed: upstream error: do request failed (request id: 20260101000005123456789abcdef) (POST http://gateway.test/v1/chat/completions)],
          "type": "error",
        },
        {
          "id": "text-0",
          "type": "text-end",
        },
        {
          "finishReason": {
            "raw": undefined,
            "unified": "error",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": undefined,
              "cacheWrite": undefined,
              "noCache": undefined,
              "total": undefined,
            },
            "outputTokens": {
              "reasoning": undefined,
              "text": undefined,
              "total": undefined,
            },
          },
        },
      ]
    `);
  });

  it('a stream that ends without [DONE]: the text, an error part, never a quiet finish', async () => {
    serveChunks('text', { done: false });
    expect(await parts()).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "chatcmpl-BxT1",
          "modelId": "gpt-4o-mini-2024-07-18",
          "timestamp": 2026-01-01T00:00:00.000Z,
          "type": "response-metadata",
        },
        {
          "id": "text-0",
          "type": "text-start",
        },
        {
          "delta": "Hello",
          "id": "text-0",
          "type": "text-delta",
        },
        {
          "delta": ", World",
          "id": "text-0",
          "type": "text-delta",
        },
        {
          "delta": "!",
          "id": "text-0",
          "type": "text-delta",
        },
        {
          "error": [AI_APICallError: Stream ended before [DONE] (POST http://gateway.test/v1/chat/completions); not retried: content had already been delivered.],
          "type": "error",
        },
        {
          "id": "text-0",
          "type": "text-end",
        },
        {
          "finishReason": {
            "raw": "stop",
            "unified": "error",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": 0,
              "cacheWrite": undefined,
              "noCache": 12,
              "total": 12,
            },
            "outputTokens": {
              "reasoning": 0,
              "text": 4,
              "total": 4,
            },
            "raw": {
              "completion_tokens": 4,
              "completion_tokens_details": {
                "accepted_prediction_tokens": 0,
                "audio_tokens": 0,
                "reasoning_tokens": 0,
                "rejected_prediction_tokens": 0,
              },
              "prompt_tokens": 12,
              "prompt_tokens_details": {
                "audio_tokens": 0,
                "cached_tokens": 0,
              },
              "total_tokens": 16,
            },
          },
        },
      ]
    `);
  });

  it('stopped by its abort signal: the parts so far, then the stream fails with an AbortError, no error part', async () => {
    const first = readFileSync(new URL('./__fixtures__/text.chunks.txt', import.meta.url), 'utf8').split('\n').slice(0, 3).filter((line) => !line.startsWith(':'));
    const bytes = new TextEncoder().encode(first.map((line) => `data: ${line}\n\n`).join(''));
    let sent = false;
    // The first frames, then silence until the request is cancelled.
    server.use(http.post(`${BASE}/chat/completions`, () => sseResponse(new ReadableStream<Uint8Array>({ pull: (c) => (sent ? new Promise<void>(() => undefined) : ((sent = true), c.enqueue(bytes))) }))));
    const controller = new AbortController();
    const { stream } = await model().doStream({ prompt, abortSignal: controller.signal });
    const reader = stream.getReader();
    const seen: string[] = [];
    let failure: unknown;
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        seen.push(next.value.type);
        if (next.value.type === 'text-delta') controller.abort();
      }
    } catch (error) {
      failure = error;
    }
    expect(seen).toMatchInlineSnapshot(`
      [
        "stream-start",
        "response-metadata",
        "text-start",
        "text-delta",
      ]
    `);
    expect(failure).toMatchObject({ name: 'AbortError' });
  });

  it('raw chunks when asked for, each before its parts', async () => {
    serveChunks('tool-name-repeated');
    expect((await parts({ includeRawChunks: true })).map((part) => part.type)).toMatchInlineSnapshot(`
      [
        "stream-start",
        "raw",
        "response-metadata",
        "text-start",
        "text-delta",
        "raw",
        "text-end",
        "tool-input-start",
        "tool-input-delta",
        "raw",
        "tool-input-delta",
        "raw",
        "tool-input-end",
        "tool-call",
        "finish",
      ]
    `);
  });
});

// A connection that breaks mid-stream: before any content the client retries it (doStream
// sees only the whole second stream); after content, the text delivered, an error part whose
// APICallError carries the client's StreamInterruptedError (its `partial` what arrived), the
// open blocks closed, and a finish with the usage the gateway had sent.
describe('doStream after a dropped connection', () => {
  it('cut after the role-only first chunk: retried, every part once', async () => {
    const sent = serveChunks('text', { cutAfter: 2, cutTimes: 1 });
    const all = await parts();
    expect(sent()).toBe(2);
    expect(all.filter((part) => part.type === 'response-metadata')).toHaveLength(1);
    expect(all.flatMap((part) => (part.type === 'text-delta' ? [part.delta] : [])).join('')).toBe('Hello, World!');
    expect(all.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'stop' }, usage: { inputTokens: { total: 12 } } });
  });

  it('cut after text: the text, an error part, the text closed, a finish without usage', async () => {
    const sent = serveChunks('text', { cutAfter: 3 });
    const all = await parts();
    expect(sent()).toBe(1);
    expect(all).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "chatcmpl-BxT1",
          "modelId": "gpt-4o-mini-2024-07-18",
          "timestamp": 2026-01-01T00:00:00.000Z,
          "type": "response-metadata",
        },
        {
          "id": "text-0",
          "type": "text-start",
        },
        {
          "delta": "Hello",
          "id": "text-0",
          "type": "text-delta",
        },
        {
          "error": [AI_APICallError: Stream interrupted (POST http://gateway.test/v1/chat/completions): terminated; not retried: content had already been delivered.],
          "type": "error",
        },
        {
          "id": "text-0",
          "type": "text-end",
        },
        {
          "finishReason": {
            "raw": undefined,
            "unified": "error",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": undefined,
              "cacheWrite": undefined,
              "noCache": undefined,
              "total": undefined,
            },
            "outputTokens": {
              "reasoning": undefined,
              "text": undefined,
              "total": undefined,
            },
          },
        },
      ]
    `);
    const error = all.find((part) => part.type === 'error')?.error as APICallError;
    expect(StreamInterruptedError.isInstance(error.cause)).toBe(true);
    const partial = (error.cause as StreamInterruptedError<ChatCompletion>).partial;
    expect(partial?.choices[0]).toMatchObject({ message: { content: 'Hello' }, finish_reason: null });
  });

  it('cut after the usage chunk, before [DONE]: the finish carries the usage the gateway sent', async () => {
    serveChunks('text', { cutAfter: 7 });
    expect(await parts()).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "chatcmpl-BxT1",
          "modelId": "gpt-4o-mini-2024-07-18",
          "timestamp": 2026-01-01T00:00:00.000Z,
          "type": "response-metadata",
        },
        {
          "id": "text-0",
          "type": "text-start",
        },
        {
          "delta": "Hello",
          "id": "text-0",
          "type": "text-delta",
        },
        {
          "delta": ", World",
          "id": "text-0",
          "type": "text-delta",
        },
        {
          "delta": "!",
          "id": "text-0",
          "type": "text-delta",
        },
        {
          "error": [AI_APICallError: Stream interrupted (POST http://gateway.test/v1/chat/completions): terminated; not retried: content had already been delivered.],
          "type": "error",
        },
        {
          "id": "text-0",
          "type": "text-end",
        },
        {
          "finishReason": {
            "raw": "stop",
            "unified": "error",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": 0,
              "cacheWrite": undefined,
              "noCache": 12,
              "total": 12,
            },
            "outputTokens": {
              "reasoning": 0,
              "text": 4,
              "total": 4,
            },
            "raw": {
              "completion_tokens": 4,
              "completion_tokens_details": {
                "accepted_prediction_tokens": 0,
                "audio_tokens": 0,
                "reasoning_tokens": 0,
                "rejected_prediction_tokens": 0,
              },
              "prompt_tokens": 12,
              "prompt_tokens_details": {
                "audio_tokens": 0,
                "cached_tokens": 0,
              },
              "total_tokens": 16,
            },
          },
        },
      ]
    `);
  });

  it('cut inside the reasoning: the reasoning so far, an error part, the reasoning closed', async () => {
    serveChunks('reasoning-content', { cutAfter: 3 });
    expect(await parts()).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "5f0e3c1a-7d2b-4a51-9b0e-2f1c8d3a6e40",
          "modelId": "deepseek-reasoner",
          "timestamp": 2026-01-01T00:00:01.000Z,
          "type": "response-metadata",
        },
        {
          "id": "reasoning-0",
          "type": "reasoning-start",
        },
        {
          "delta": "The user",
          "id": "reasoning-0",
          "type": "reasoning-delta",
        },
        {
          "delta": " greets me.",
          "id": "reasoning-0",
          "type": "reasoning-delta",
        },
        {
          "error": [AI_APICallError: Stream interrupted (POST http://gateway.test/v1/chat/completions): terminated; not retried: content had already been delivered.],
          "type": "error",
        },
        {
          "id": "reasoning-0",
          "providerMetadata": {
            "unifiedGateway": {
              "model": "gpt-4o-mini",
              "reasoningField": "reasoning_content",
            },
          },
          "type": "reasoning-end",
        },
        {
          "finishReason": {
            "raw": undefined,
            "unified": "error",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": undefined,
              "cacheWrite": undefined,
              "noCache": undefined,
              "total": undefined,
            },
            "outputTokens": {
              "reasoning": undefined,
              "text": undefined,
              "total": undefined,
            },
          },
        },
      ]
    `);
  });

  it('cut inside a tool call’s arguments: its input closed, never a tool call to run', async () => {
    serveChunks('tool-calls', { cutAfter: 2 });
    const all = await parts();
    expect(all.map((part) => part.type)).toEqual(['stream-start', 'response-metadata', 'tool-input-start', 'tool-input-delta', 'error', 'tool-input-end', 'finish']);
    expect(all).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "chatcmpl-BxT3",
          "modelId": "gpt-4o-mini-2024-07-18",
          "timestamp": 2026-01-01T00:00:03.000Z,
          "type": "response-metadata",
        },
        {
          "id": "call_O17Uplv4lJvD6DVdIvFFeRMw",
          "toolName": "get_weather",
          "type": "tool-input-start",
        },
        {
          "delta": "{"ci",
          "id": "call_O17Uplv4lJvD6DVdIvFFeRMw",
          "type": "tool-input-delta",
        },
        {
          "error": [AI_APICallError: Stream interrupted (POST http://gateway.test/v1/chat/completions): terminated; not retried: content had already been delivered.],
          "type": "error",
        },
        {
          "id": "call_O17Uplv4lJvD6DVdIvFFeRMw",
          "type": "tool-input-end",
        },
        {
          "finishReason": {
            "raw": undefined,
            "unified": "error",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": undefined,
              "cacheWrite": undefined,
              "noCache": undefined,
              "total": undefined,
            },
            "outputTokens": {
              "reasoning": undefined,
              "text": undefined,
              "total": undefined,
            },
          },
        },
      ]
    `);
  });

  it('cut inside a tool call’s arguments under streamText with tools: no tool runs, no second step', async () => {
    const answered = serveChunks('tool-calls', { cutAfter: 2 });
    const ran: unknown[] = [];
    const get_weather = tool({ inputSchema: z.object({ city: z.string() }), execute: async (input) => void ran.push(input) });
    const get_time = tool({ inputSchema: z.object({ zone: z.string() }), execute: async (input) => void ran.push(input) });
    const errors: unknown[] = [];
    const result = streamText({ model: model(), prompt: 'x', tools: { get_weather, get_time }, stopWhen: stepCountIs(3), onError: ({ error }) => void errors.push(error) });
    await result.consumeStream();
    expect(ran).toEqual([]);
    expect(answered()).toBe(1);
    expect((await result.steps).length).toBe(1);
    expect(errors).toHaveLength(1);
  });

  it('cut after the finish reason of tool calls: the calls were whole, so they are made and the turn ends as the model finished it', async () => {
    serveChunks('tool-calls', { cutAfter: 6 });
    const all = await parts();
    expect(all.map((part) => part.type)).toMatchInlineSnapshot(`
      [
        "stream-start",
        "response-metadata",
        "tool-input-start",
        "tool-input-delta",
        "tool-input-delta",
        "tool-input-start",
        "tool-input-delta",
        "tool-input-end",
        "tool-call",
        "tool-input-end",
        "tool-call",
        "finish",
      ]
    `);
    // No error part (the AI SDK would end the loop there); the cut is told on the finish part.
    const finish = all.at(-1) as { finishReason: { unified: string }; providerMetadata?: { unifiedGateway?: { interrupted?: unknown } } };
    expect(finish.finishReason.unified).toBe('tool-calls');
    expect(finish.providerMetadata?.unifiedGateway?.interrupted).toEqual(expect.stringContaining('Stream'));
  });
});
