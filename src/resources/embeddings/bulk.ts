// Bulk embeddings, loaded together with the first createMany() or iterate(): a plain chat
// app, or one that embeds a text at a time, never carries the batching.
export { createMany } from './create-many.js';
export { iterate } from './iterate.js';
