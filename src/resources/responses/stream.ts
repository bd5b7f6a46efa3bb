import { GatewayError } from '../../core/errors.js';
import { Stream } from '../../core/streaming.js';
import type { Response, ResponseStreamEvent } from './types.js';

/** Fills `output_text` from the output items when the server left it out. */
export function withOutputText(response: Response): Response {
  if (typeof response.output_text === 'string') return response;
  let text = '';
  for (const item of response.output ?? []) {
    const content = (item as { content?: unknown }).content;
    if (item.type !== 'message' || !Array.isArray(content)) continue;
    for (const part of content as Array<{ type: string; text?: string }>) if (part.type === 'output_text') text += part.text ?? '';
  }
  return { ...response, output_text: text };
}

/** The stream of `responses.create({ stream: true })`. */
export class ResponseStream extends Stream<ResponseStreamEvent> {
  #last: Response | undefined;

  /** @internal */
  override _observe(event: ResponseStreamEvent): void {
    if ('response' in event) this.#last = event.response;
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
