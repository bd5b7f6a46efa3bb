import { Stream } from '../../core/streams/stream.js';
import type { Completion, CompletionChoice } from './types.js';

/**
 * The stream of `completions.create({ stream: true })`, typed `Stream<Completion>`: each frame
 * is a `Completion` whose choices carry a piece of text. It keeps what arrived, so a stream
 * cut after text throws `StreamInterruptedError` with the text so far.
 */
export class CompletionStream extends Stream<Completion> {
  /** @internal A frame carries content when any choice has text. */
  static override hasContent(frame: unknown): boolean {
    const choices = (frame as Partial<Completion> | null)?.choices;
    return Array.isArray(choices) && choices.some((choice: Partial<CompletionChoice> | null) => typeof choice?.text === 'string' && choice.text.length > 0);
  }

  #first: Completion | undefined;
  /** Text per choice index, as pieces (joined once, when asked for). */
  #text: string[][] = [];

  /** @internal */
  override _observe(frame: Completion): void {
    this.#first ??= frame;
    for (const choice of Array.isArray(frame?.choices) ? frame.choices : []) {
      if (Number.isInteger(choice?.index) && choice.index >= 0 && choice.index < 2 ** 16 && typeof choice.text === 'string') (this.#text[choice.index] ??= []).push(choice.text);
    }
  }

  /** @internal What arrived, as one completion still in progress: `finish_reason` null. */
  override _partial(): Completion | undefined {
    const first = this.#first;
    if (!first) return undefined;
    const choices = this.#text.flatMap((pieces, index) => (pieces ? [{ index, text: pieces.join(''), finish_reason: null, logprobs: null }] : []));
    return { id: first.id, object: 'text_completion', created: first.created, model: first.model, choices };
  }
}
