import { excerpt } from '../../core/error-factory.js';
import { GatewayError } from '../../core/errors.js';
import { Stream } from '../../core/streams/stream.js';
import type { Response, ResponseStreamEvent } from './types.js';

/** Fills `output_text` from the output items when the server left it out. */
export function withOutputText(response: Response): Response {
  if (typeof response.output_text === 'string') return response;
  let text = '';
  // Read defensively: an `output` that is not an array of objects must not fail with a TypeError.
  const output: unknown = response.output;
  for (const item of Array.isArray(output) ? (output as unknown[]) : []) {
    if (!isObject(item) || item.type !== 'message' || !Array.isArray(item.content)) continue;
    for (const part of item.content as unknown[]) if (isObject(part) && part.type === 'output_text' && typeof part.text === 'string') text += part.text;
  }
  return { ...response, output_text: text };
}

/** The stream of `responses.create({ stream: true })`. */
export class ResponseStream extends Stream<ResponseStreamEvent> {
  /** @internal The events that end a responses stream (it sends no `[DONE]`). */
  static override readonly terminalEvents: readonly string[] = ['response.completed', 'response.failed', 'response.incomplete'];

  /**
   * @internal Content: any `….delta` (text, reasoning, a refusal, a tool call's arguments) or
   * `….done` event, or the end itself; before one, events only announce what is coming.
   */
  static override hasContent(event: unknown): boolean {
    const type = (event as { type?: unknown } | null)?.type;
    return typeof type === 'string' && (type.endsWith('.delta') || type.endsWith('.done') || ResponseStream.terminalEvents.includes(type));
  }

  #last: Response | undefined;
  /** Output text so far, from `response.output_text.delta` events. */
  #text: string[] = [];

  /** @internal */
  override _observe(event: ResponseStreamEvent): void {
    // Valid JSON that is not an event (`data: null`) would otherwise fail with a TypeError here.
    if (typeof event !== 'object' || event === null) throw new GatewayError(`Invalid event in responses stream: ${excerpt(JSON.stringify(event) ?? String(event))}`);
    if ('response' in event) this.#last = event.response;
    else if (event.type === 'response.output_text.delta' && typeof (event as { delta?: unknown }).delta === 'string') this.#text.push((event as { delta: string }).delta);
  }

  /** @internal The last response the stream described, with the output text that arrived. */
  override _partial(): Response | undefined {
    return this.#last && { ...this.#last, output_text: this.#text.join('') };
  }

  /**
   * Reads what is left and resolves to the final `Response` (from its last
   * `response.completed`, `.failed` or `.incomplete` event).
   */
  async finalResponse(): Promise<Response> {
    await this.drain();
    const last = this.#last;
    if (!last) throw new GatewayError('The stream ended without a response event.');
    return withOutputText(last);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
