import { APIResource, type APIClient } from '../../core/resource.js';
import { Transcriptions } from './transcriptions/index.js';

/** `client.audio` */
export class Audio extends APIResource {
  /** Speech to text: `client.audio.transcriptions.create(...)`. */
  readonly transcriptions: Transcriptions;
  constructor(client: APIClient) {
    super(client);
    this.transcriptions = new Transcriptions(client);
  }
}
