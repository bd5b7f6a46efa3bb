import type { LanguageModelV3StreamPart, SharedV3Warning } from '@ai-sdk/provider';
import type { ChatCompletionChunk, CompletionUsage, Cost, Stream } from '../index.js';
import { isAbortError, toAISDKError, type CallContext } from './errors.js';
import { mapFinishReason, mapUsage } from './map-response.js';
import { costMetadata, PROVIDER_OPTIONS_KEY, reasoningMetadata, streamCost, toolCallMetadata } from './shared.js';
import { ReasoningAccumulator, reasoningText } from '../resources/chat/completions/reasoning-fields.js';

interface ToolCallState {
  id: string;
  name: string;
  arguments: string;
  /** Vendor data that goes back with the call (Gemini's thought signature), as the last fragment that had it sent it. */
  extra?: Record<string, unknown> | undefined;
}

/**
 * The client's chunk stream as the specification's stream parts. Pulled one chunk at a
 * time, so a slow reader slows the connection; cancelling it (the AI SDK does when its
 * caller stops reading or aborts) aborts the request and closes the connection.
 */
export function toStreamParts(
  stream: Stream<ChatCompletionChunk>,
  options: { warnings: SharedV3Warning[]; includeRawChunks: boolean; context: CallContext; writer: (answered: unknown) => string },
): ReadableStream<LanguageModelV3StreamPart> {
  const iterator = stream[Symbol.asyncIterator]();
  const toolCalls = new Map<number, ToolCallState>();
  let started = false;
  let finished = false;
  let textOpen = false;
  /** The open reasoning block's fields as they came (they end it as its provider metadata); undefined when none is open. */
  let reasoning: ReasoningAccumulator | undefined;
  let reasoningBlocks = 0;
  let reasoningId = 'reasoning-0';
  let usage: CompletionUsage | null | undefined;
  let finishReason: string | null | undefined;
  let failed = false;
  /** A cut after the finish reason: the turn was whole (only its usage or `[DONE]` missing); told on the finish part. */
  let cutAfterFinish: string | undefined;
  /** The model that wrote the reply (the parts' vendor data go back to it only), from the first chunk's `model`. */
  let writer: string | undefined;

  const closeReasoning = (out: LanguageModelV3StreamPart[]) => {
    if (!reasoning) return;
    const fields = reasoningMetadata(reasoning.result(), (writer ??= options.writer(undefined)));
    out.push({ type: 'reasoning-end', id: reasoningId, ...(fields ? { providerMetadata: fields } : {}) });
    reasoning = undefined;
  };
  const closeBlocks = (out: LanguageModelV3StreamPart[]) => {
    closeReasoning(out);
    if (textOpen) out.push({ type: 'text-end', id: 'text-0' });
    textOpen = false;
  };

  const onChunk = (chunk: ChatCompletionChunk): LanguageModelV3StreamPart[] => {
    const out: LanguageModelV3StreamPart[] = [];
    if (options.includeRawChunks) out.push({ type: 'raw', rawValue: chunk });
    if (!started) {
      started = true;
      writer = options.writer(chunk.model);
      out.push({ type: 'response-metadata', id: chunk.id, modelId: chunk.model, ...(chunk.created ? { timestamp: new Date(chunk.created * 1000) } : {}) });
    }
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) return out;
    if (choice.finish_reason) finishReason = choice.finish_reason;
    const delta = choice.delta;
    if (delta.reasoning_content || delta.reasoning || delta.reasoning_details || delta.thinking_blocks) {
      if (!reasoning) {
        reasoning = new ReasoningAccumulator();
        reasoningId = `reasoning-${reasoningBlocks++}`;
        out.push({ type: 'reasoning-start', id: reasoningId });
      }
      reasoning.add(delta);
      const text = reasoningText(delta);
      if (text) out.push({ type: 'reasoning-delta', id: reasoningId, delta: text });
    }
    if (delta.content) {
      closeReasoning(out);
      if (!textOpen) out.push({ type: 'text-start', id: 'text-0' });
      textOpen = true;
      out.push({ type: 'text-delta', id: 'text-0', delta: delta.content });
    }
    for (const call of delta.tool_calls ?? []) {
      let state = toolCalls.get(call.index);
      if (!state) {
        closeBlocks(out);
        state = { id: call.id ?? `call_${call.index}`, name: call.function?.name ?? '', arguments: '' };
        toolCalls.set(call.index, state);
        out.push({ type: 'tool-input-start', id: state.id, toolName: state.name });
      }
      if (call.extra_content !== undefined) state.extra = call.extra_content;
      const piece = call.function?.arguments;
      if (piece) {
        state.arguments += piece;
        out.push({ type: 'tool-input-delta', id: state.id, delta: piece });
      }
    }
    return out;
  };

  const onEnd = (cost: Cost | null): LanguageModelV3StreamPart[] => {
    const out: LanguageModelV3StreamPart[] = [];
    closeBlocks(out);
    // A stream that broke before its finish reason may have cut a call's arguments short, and
    // a later call may be missing: its inputs are closed, but no call is made of a turn the
    // model did not finish (the AI SDK would run the tools and go on to the next step).
    const whole = !failed || finishReason != null;
    for (const call of toolCalls.values()) {
      out.push({ type: 'tool-input-end', id: call.id });
      if (whole) out.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.arguments || '{}', ...toolCallMetadata(call.extra, (writer ??= options.writer(undefined))) });
    }
    const finish: LanguageModelV3StreamPart = { type: 'finish', usage: mapUsage(usage), finishReason: failed ? { unified: 'error', raw: finishReason ?? undefined } : mapFinishReason(finishReason) };
    const metadata = { ...(cutAfterFinish === undefined ? {} : { interrupted: cutAfterFinish }), ...costMetadata(cost) };
    out.push(Object.keys(metadata).length ? { ...finish, providerMetadata: { [PROVIDER_OPTIONS_KEY]: metadata } } : finish);
    return out;
  };

  return new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      controller.enqueue({ type: 'stream-start', warnings: options.warnings });
    },
    async pull(controller) {
      if (finished) return;
      try {
        // A chunk may give no part (usage only, an empty delta): read on, since a pull that
        // enqueues nothing is not called again.
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
          const parts = onChunk(next.value);
          for (const part of parts) controller.enqueue(part);
          if (parts.length) return;
        }
      } catch (error) {
        const failure = toAISDKError(error, options.context);
        if (isAbortError(failure)) {
          // Stopped by the caller's signal: the stream fails with the AbortError, as a fetch
          // body does, and the AI SDK calls onAbort. An error part would reach streamText's
          // onError too in ai 7, whose step reader (with tools) calls it before its abort check.
          finished = true;
          controller.error(failure);
          return;
        }
        if (finishReason != null && toolCalls.size > 0) {
          // Tool calls past the finish reason were whole: the turn ends as the model finished
          // it, so the AI SDK runs them and goes on (an error part would end its loop there);
          // the cut (the usage lost) is told on the finish part.
          cutAfterFinish = failure instanceof Error ? failure.message : String(failure);
        } else {
          // An error frame inside a 200, a cut connection, an idle stream: an error part
          // carrying the client's typed error (as its cause), never a silent end.
          failed = true;
          controller.enqueue({ type: 'error', error: failure });
        }
      }
      finished = true;
      // The client's stream has ended here (read to its end, or cut), so its cost() resolves
      // now: once the call is priced, or at once to null without the client's `cost`. An
      // error of this reader's own (a chunk it could not map) left it open: it is left first,
      // which ends it too. An abort (above) and a cancel (below) send no finish part and wait for nothing.
      if (failed || cutAfterFinish !== undefined) await iterator.return?.().catch(() => undefined);
      const cost = await streamCost(stream);
      for (const part of onEnd(cost)) controller.enqueue(part);
      controller.close();
    },
    async cancel() {
      finished = true;
      stream.controller.abort();
      await iterator.return?.();
    },
  });
}
