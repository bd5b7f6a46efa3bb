import { countWords, outOfRange, type MockContext } from './context.js';

/** POST /completions: echoes the prompt; streams word by word. */
export function completions(ctx: MockContext): Response {
  const { body } = ctx;
  const bad = ctx.checkModel(body.model, 'completion', 'legacy completions');
  if (bad) return bad;
  const prompt = Array.isArray(body.prompt) ? body.prompt.map(String).join(' ') : body.prompt;
  if (typeof prompt !== 'string' || !prompt) return ctx.invalid('prompt must be a non-empty string or array', 'prompt');
  const range = outOfRange(body, 'temperature', 0, 2) ?? outOfRange(body, 'top_p', 0, 1) ?? outOfRange(body, 'max_tokens', 0, 100_000, true);
  if (range) return ctx.invalid(range, range.split(' ')[0] ?? null);
  let text = ` This is a mock completion of: ${prompt}`;
  let finish = 'stop';
  if (typeof body.max_tokens === 'number' && countWords(text) > body.max_tokens) {
    text = text.split(' ').slice(0, body.max_tokens + 1).join(' ');
    finish = 'length';
  }
  const base = { id: `cmpl-mock-${ctx.id}`, object: 'text_completion', created: Math.floor(ctx.now / 1000), model: body.model };
  const usage = { prompt_tokens: countWords(prompt), completion_tokens: countWords(text), total_tokens: countWords(prompt) + countWords(text) };
  ctx.charge({ kind: 'tokens', model: String(body.model), stream: body.stream === true, prompt: usage.prompt_tokens, completion: usage.completion_tokens });
  if (body.stream === true) {
    const pieces = text.split(/(?= )/);
    const frames = pieces.map((piece, i) => ({
      data: { ...base, choices: [{ index: 0, text: piece, logprobs: null, finish_reason: i === pieces.length - 1 ? finish : null }] },
    }));
    return ctx.sse(frames);
  }
  return ctx.reply(200, { ...base, choices: [{ index: 0, text, logprobs: null, finish_reason: finish }], usage });
}

/** Output size of the mock's embedding models; `dimensions` shortens the v3 models. */
const EMBEDDING_SIZES: Record<string, number> = { 'text-embedding-3-small': 1536, 'text-embedding-3-large': 3072, 'text-embedding-ada-002': 1536 };

/** POST /embeddings: deterministic unit vectors derived from each input's text. */
export function embeddings(ctx: MockContext): Response {
  const { body } = ctx;
  const bad = ctx.checkModel(body.model, 'embedding', 'embeddings');
  if (bad) return bad;
  const inputs = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? body.input : undefined;
  if (!inputs || inputs.length === 0 || inputs.some((i) => i === '')) return ctx.invalid("'input' must be a non-empty string or array", 'input');
  const full = EMBEDDING_SIZES[String(body.model)] ?? 1536;
  const size = typeof body.dimensions === 'number' ? body.dimensions : full;
  if (!Number.isInteger(size) || size < 1 || size > full) return ctx.invalid(`dimensions must be an integer between 1 and ${full}`, 'dimensions');
  if (body.encoding_format !== undefined && body.encoding_format !== 'float' && body.encoding_format !== 'base64') {
    return ctx.invalid("encoding_format must be 'float' or 'base64'", 'encoding_format');
  }
  const data = inputs.map((input, index) => {
    const vector = vectorFor(typeof input === 'string' ? input : JSON.stringify(input), size);
    return { object: 'embedding', index, embedding: body.encoding_format === 'base64' ? toBase64(vector) : Array.from(vector) };
  });
  const tokens = inputs.reduce((n: number, i) => n + countWords(String(i)), 0);
  ctx.charge({ kind: 'tokens', model: String(body.model), stream: false, prompt: tokens, completion: 0 });
  return ctx.reply(200, { object: 'list', data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
}

/**
 * A unit-length bag-of-words vector: each word adds its own pseudo-random vector (seeded by
 * the word), so equal texts get equal vectors and texts sharing words come out similar.
 */
function vectorFor(text: string, size: number): Float32Array {
  const v = new Float32Array(size);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [text];
  for (const word of words) {
    let seed = 2166136261;
    for (let i = 0; i < word.length; i++) seed = Math.imul(seed ^ word.charCodeAt(i), 16777619) >>> 0;
    for (let i = 0; i < size; i++) {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      seed >>>= 0;
      v[i] = (v[i] as number) + (seed / 4294967296 - 0.5);
    }
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  const scale = 1 / Math.sqrt(norm || 1);
  for (let i = 0; i < size; i++) v[i] = (v[i] as number) * scale;
  return v;
}

/** Little-endian float32 bytes as base64, as OpenAI-compatible servers encode embeddings. */
function toBase64(vector: Float32Array): string {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  vector.forEach((x, i) => view.setFloat32(i * 4, x, true));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}
