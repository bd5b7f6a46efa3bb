// Every error a resource throws, re-exported in one module. Each lives in its resource's
// folder; the code that loads on first use imports them from here, so that app bundlers put
// them in one shared chunk rather than one chunk each (docs/architecture.md#size).
export { ToolRunLimitError } from './chat/completions/errors.js';
export { EmbeddingBatchError } from './embeddings/errors.js';
export { VIDEO_TASK_TTL_MS, VideoTaskFailedError, VideoTaskNotFoundError } from './videos/errors.js';
