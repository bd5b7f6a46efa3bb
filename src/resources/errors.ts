// Every error a resource throws, re-exported in one module for the client's statics and the
// package's exports. Each lives in its resource's folder.
export { ToolRunLimitError } from './chat/completions/errors.js';
export { EmbeddingBatchError } from './embeddings/errors.js';
export { VIDEO_TASK_TTL_MS, VideoTaskFailedError, VideoTaskNotFoundError } from './videos/errors.js';
