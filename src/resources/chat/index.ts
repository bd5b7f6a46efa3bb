import { APIResource } from '../../core/resource.js';
import type { APIClient } from '../../core/resource.js';
import { ChatCompletions } from './completions/index.js';

/** `client.chat` */
export class Chat extends APIResource {
  /** Chat completions: `client.chat.completions.create(...)`. */
  readonly completions: ChatCompletions;
  constructor(client: APIClient) {
    super(client);
    this.completions = new ChatCompletions(client);
  }
}
