import type { ChatCompletionMessageToolCall } from '../resources/chat/completions/types.js';
import { usageOf, type Reply } from './chat-reply.js';

/** One tool call in a scripted reply ({@link MockChatReply}). */
export interface MockToolCall {
  /** The function's name. */
  name: string;
  /**
   * The arguments: an object is sent as JSON, a string verbatim (so a test can send invalid
   * JSON and see how its code copes).
   */
  arguments: string | Record<string, unknown>;
  /** @default `call_<request number>_<index>` */
  id?: string | undefined;
}

/**
 * An exact assistant reply for chat/completions (and /responses, as output items: its tool
 * calls as `function_call` items, then its message), queued with `mock.script(...)` or the
 * `script` option. Each chat or responses request that passes the mock's checks (key, faults,
 * parameters, model) takes the next one, streamed or not; with none left the deterministic
 * replies resume.
 * @example
 * mock.script([
 *   { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }, { name: 'get_time', arguments: '{}' }] },
 *   { content: 'Sunny in Oslo, 14:00.' },
 * ]);
 */
export interface MockChatReply {
  /** The message text. @default null with `toolCalls` or `refusal`, else '' */
  content?: string | undefined;
  /** Sets `message.refusal` (streamed as `delta.refusal`). */
  refusal?: string | undefined;
  /** Several calls make parallel tool calls in one message (separate stream indexes). */
  toolCalls?: MockToolCall[] | undefined;
  /** @default 'tool_calls' with `toolCalls`, else 'stop' */
  finishReason?: string | undefined;
  /**
   * The model's reasoning, sent before the content in the field the model uses
   * (`reasoning_content` unless its catalogue entry says `reasoning`), streamed in pieces too.
   * On a reasoning model it replaces the deterministic reasoning.
   */
  reasoning?: string | undefined;
}

/** A scripted reply as the mock sends it; `max_tokens` does not cut it. */
export function scriptedReply(script: MockChatReply, messages: Array<Record<string, unknown>>, requestId: number): Reply {
  const toolCalls = script.toolCalls?.length
    ? script.toolCalls.map(
        (call, i): ChatCompletionMessageToolCall => ({
          id: call.id ?? `call_${requestId}_${i}`,
          type: 'function',
          function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
        }),
      )
    : undefined;
  const content = script.content ?? (toolCalls || script.refusal !== undefined ? null : '');
  const refusal = script.refusal ?? null;
  return {
    content,
    refusal,
    toolCalls,
    finishReason: script.finishReason ?? (toolCalls ? 'tool_calls' : 'stop'),
    usage: usageOf(messages, `${content ?? ''} ${refusal ?? ''}`, toolCalls?.map((c) => c.function.arguments) ?? []),
  };
}
