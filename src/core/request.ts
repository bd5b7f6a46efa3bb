// Transitional: the request types moved to types.ts.
export type { Answer as Sent, CoreConfig, CoreRequest, FetchOptions, OpenStream, RequestOptions } from './types.js';
