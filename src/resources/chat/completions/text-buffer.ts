/**
 * Text built from many small deltas. Appending to a string makes a rope of one node per
 * delta, tens of bytes each; every 1,024 deltas are joined into one flat block instead, so
 * memory follows the text's length rather than the number of chunks.
 */
export class TextBuffer {
  /** Flat strings of 1,024 deltas each. */
  #blocks: string[] = [];
  #parts: string[] = [];
  push(text: string): void {
    this.#parts.push(text);
    if (this.#parts.length === 1024) {
      this.#blocks.push(this.#parts.join(''));
      this.#parts = [];
    }
  }
  toString(): string {
    return this.#blocks.join('') + this.#parts.join('');
  }
}
