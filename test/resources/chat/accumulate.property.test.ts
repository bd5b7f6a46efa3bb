import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChatCompletionAccumulator } from '../../../src/resources/chat/completions/stream.js';
import { GatewayError, type ChatCompletion, type ChatCompletionChunk } from '../../../src/index.js';
import { client } from '../../helpers/fixtures.js';
import { piecesBody, sseResponse, sseText } from '../../helpers/sse.js';

// Properties of the chat chunk accumulator: however a reply is cut into deltas and chunks
// (text and tool-call arguments split anywhere, choices interleaved, names and ids repeated
// or not), finalChatCompletion() is the same completion.

interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}
interface Choice {
  content: string;
  reasoning: string;
  refusal: string;
  toolCalls: ToolCall[];
  finish: 'stop' | 'length' | 'tool_calls';
}
interface Reply {
  choices: Choice[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
}

const text = (maxLength: number) => fc.string({ unit: 'binary', maxLength });
const replyArb: fc.Arbitrary<Reply> = fc.record({
  choices: fc.array(
    fc.record({
      content: text(40),
      reasoning: text(10),
      refusal: fc.oneof({ weight: 4, arbitrary: fc.constant('') }, { weight: 1, arbitrary: text(10) }),
      toolCalls: fc.array(fc.record({ id: fc.string({ minLength: 1, maxLength: 8 }), name: fc.stringMatching(/^[a-z_]{1,12}$/), arguments: text(30) }), { maxLength: 3 }),
      finish: fc.constantFrom('stop', 'length', 'tool_calls'),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  usage: fc.option(fc.record({ prompt_tokens: fc.nat(), completion_tokens: fc.nat(), total_tokens: fc.nat() })),
});

/** How a reply is cut: split points for text (indexes into a list, reused cyclically), and how chunks interleave. */
const cutArb = fc.record({
  cuts: fc.array(fc.nat({ max: 12 }), { minLength: 1, maxLength: 8 }),
  picks: fc.array(fc.nat(), { minLength: 1, maxLength: 16 }),
  repeatName: fc.boolean(),
  repeatId: fc.boolean(),
});
interface Cut {
  cuts: number[];
  picks: number[];
  repeatName: boolean;
  repeatId: boolean;
}

/** `s` in pieces whose lengths come from `cuts` (0 = an empty delta), anywhere in UTF-16, surrogate pairs included. */
function pieces(s: string, cuts: number[], salt: number): string[] {
  const step = cuts.some((c) => c > 0) ? cuts : [1];
  const out: string[] = [];
  for (let offset = 0, i = salt; offset < s.length || out.length === 0; i++) {
    const size = step[i % step.length] as number;
    out.push(s.slice(offset, offset + size));
    offset += size;
  }
  return out;
}

const base = { id: 'chatcmpl-p', object: 'chat.completion.chunk' as const, created: 5, model: 'm' };
type Delta = NonNullable<ChatCompletionChunk['choices'][number]['delta']>;

/** The reply as a stream of chunks, cut as `cut` says. */
function chunksOf(reply: Reply, cut: Cut): ChatCompletionChunk[] {
  // Per choice, its deltas in order; different choices interleave.
  const lanes: { index: number; deltas: Delta[] }[] = reply.choices.map((choice, index) => {
    const deltas: Delta[] = [{ role: 'assistant', content: '' }];
    for (const piece of pieces(choice.reasoning, cut.cuts, 1)) deltas.push({ reasoning_content: piece });
    for (const piece of pieces(choice.content, cut.cuts, 2)) deltas.push({ content: piece });
    if (choice.refusal) for (const piece of pieces(choice.refusal, cut.cuts, 3)) deltas.push({ refusal: piece });
    choice.toolCalls.forEach((call, t) => {
      pieces(call.arguments, cut.cuts, 4 + t).forEach((piece, n) => {
        const first = n === 0;
        deltas.push({
          tool_calls: [
            {
              index: t,
              ...(first || cut.repeatId ? { id: call.id } : {}),
              ...(first ? { type: 'function' as const } : {}),
              function: { ...(first || cut.repeatName ? { name: call.name } : {}), arguments: piece },
            },
          ],
        });
      });
    });
    return { index, deltas };
  });
  const chunks: ChatCompletionChunk[] = [];
  for (let p = 0; lanes.some((l) => l.deltas.length); p++) {
    const open = lanes.filter((l) => l.deltas.length);
    const lane = open[(cut.picks[p % cut.picks.length] as number) % open.length] as (typeof lanes)[number];
    chunks.push({ ...base, choices: [{ index: lane.index, delta: lane.deltas.shift() as Delta, finish_reason: null }] });
  }
  chunks.push({ ...base, choices: reply.choices.map((c, index) => ({ index, delta: {}, finish_reason: c.finish })) });
  if (reply.usage) chunks.push({ ...base, choices: [], usage: reply.usage });
  return chunks;
}

/** The completion the reply should accumulate to. */
function expected(reply: Reply): ChatCompletion {
  return {
    id: base.id,
    object: 'chat.completion',
    created: base.created,
    model: base.model,
    ...(reply.usage ? { usage: reply.usage } : {}),
    choices: reply.choices.map((c, index) => ({
      index,
      finish_reason: c.finish,
      message: {
        role: 'assistant',
        content: c.content || null,
        ...(c.reasoning ? { reasoning_content: c.reasoning } : {}),
        ...(c.refusal ? { refusal: c.refusal } : {}),
        ...(c.toolCalls.length ? { tool_calls: c.toolCalls.map((t) => ({ id: t.id, type: 'function' as const, function: { name: t.name, arguments: t.arguments } })) } : {}),
      },
    })),
  };
}

function accumulate(chunks: ChatCompletionChunk[]): ChatCompletion {
  const acc = new ChatCompletionAccumulator();
  for (const c of chunks) acc.add(c);
  return acc.result();
}

describe('chat chunk accumulator properties', () => {
  it('gives the same completion however the reply is cut and interleaved', () => {
    fc.assert(
      fc.property(replyArb, cutArb, (reply, cut) => {
        expect(accumulate(chunksOf(reply, cut))).toEqual(expected(reply));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same finalChatCompletion() through the client, whatever bytes the SSE body arrives in', async () => {
    const enc = new TextEncoder();
    await fc.assert(
      fc.asyncProperty(replyArb, cutArb, fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 4 }), async (reply, cut, sizes) => {
        const bytes = enc.encode(sseText(chunksOf(reply, cut)));
        const queue: Uint8Array[] = [];
        for (let offset = 0, i = 0; offset < bytes.length; i++) {
          const size = sizes[i % sizes.length] as number;
          queue.push(bytes.slice(offset, offset + size));
          offset += size;
        }
        const fetch = async () => sseResponse(piecesBody(queue));
        const stream = await client({ fetch, maxRetries: 0 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true });
        expect(await stream.finalChatCompletion()).toEqual(expected(reply));
      }),
      { numRuns: 40 },
    );
  });

  it('takes any JSON as a chunk without a TypeError, a hang, or a write to Array.prototype', () => {
    const index = fc.oneof(fc.nat({ max: 3 }), fc.integer({ min: -(2 ** 20), max: 2 ** 20 }), fc.double({ min: -1e6, max: 1e6 }), fc.constantFrom('__proto__', 'constructor', 'length', null));
    const loose = <T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }) => fc.record(model, { requiredKeys: [] });
    const fragment = fc.oneof(fc.jsonValue({ maxDepth: 1 }), loose({ index, id: fc.jsonValue({ maxDepth: 1 }), function: fc.oneof(fc.jsonValue({ maxDepth: 1 }), loose({ name: fc.jsonValue({ maxDepth: 0 }), arguments: fc.jsonValue({ maxDepth: 0 }) })) }));
    const delta = fc.oneof(fc.jsonValue({ maxDepth: 1 }), loose({ content: fc.jsonValue({ maxDepth: 0 }), refusal: fc.jsonValue({ maxDepth: 0 }), tool_calls: fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.array(fragment, { maxLength: 2 })) }));
    const part = fc.oneof(fc.jsonValue({ maxDepth: 1 }), loose({ index, delta, finish_reason: fc.jsonValue({ maxDepth: 0 }), logprobs: fc.jsonValue({ maxDepth: 0 }) }));
    const junk = fc.oneof(fc.jsonValue({ maxDepth: 2 }), loose({ id: fc.jsonValue({ maxDepth: 0 }), usage: fc.jsonValue({ maxDepth: 1 }), choices: fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.array(part, { maxLength: 3 })) }));
    fc.assert(
      fc.property(fc.array(junk, { maxLength: 5 }), (chunks) => {
        const acc = new ChatCompletionAccumulator();
        for (const c of chunks) {
          try {
            acc.add(c as ChatCompletionChunk);
          } catch (error) {
            expect(error).toBeInstanceOf(GatewayError);
          }
        }
        const result = acc.result();
        expect(result.choices.length).toBeLessThanOrEqual(chunks.length * 3);
        expect(Object.getOwnPropertyNames(Array.prototype).filter((k) => ['id', 'finish_reason', 'message', 'logprobs', 'function', 'content'].includes(k))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
