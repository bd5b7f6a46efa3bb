import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/types.js';
import type { CallPipeline } from '../../core/resource.js';
import { check } from './schema.js';
import { ResponseStream, withOutputText } from './stream.js';
import type { Response, ResponseCreateParams } from './types.js';

// The responses call, loaded with the first one (with its schema, zod and stream class).

const terminal = new Set(['response.completed', 'response.failed', 'response.incomplete']);
/** True for the events that end a responses stream (it sends no `[DONE]`). */
const isTerminal = (event: unknown) => terminal.has((event as { type?: string }).type ?? '');

/** POST responses; with `stream: true`, typed events until the terminal one. */
export function create(api: CallPipeline, body: ResponseCreateParams, options: RequestOptions | undefined): APIPromise<Response | ResponseStream> {
  return api.post(
    {
      path: 'responses',
      body,
      schema: { check },
      stream: async () => ResponseStream,
      sse: { expectDone: false, isTerminal },
      map: (data) => withOutputText(data as Response),
    },
    options,
  );
}
