import { GatewayError } from '../../../core/errors.js';
import type { ChatCompletion, ChatCompletionMessageParam } from './types.js';

/**
 * `runTools()` reached `maxTurns` model calls and the model still asked for tools. The
 * transcript so far is on `messages`; the last reply on `completion`.
 */
export class ToolRunLimitError extends GatewayError {
  static override readonly kind = 'ToolRunLimitError';
  /** Every message so far: yours, the model's and the tool results. */
  readonly messages: ChatCompletionMessageParam[];
  /** The last completion, whose tool calls were not run. */
  readonly completion: ChatCompletion;
  /** @internal */
  constructor(maxTurns: number, messages: ChatCompletionMessageParam[], completion: ChatCompletion) {
    super(`The model still asked for tools after ${maxTurns} turns (maxTurns). The transcript so far is on err.messages.`);
    this.messages = messages;
    this.completion = completion;
  }
}
