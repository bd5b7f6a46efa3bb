import { outOfRange, type MockContext } from './context.js';

/** A 1×1 PNG: what the mock's images contain. */
export const PIXEL_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** The sizes the gateway documents per image model; the mock enforces them as the gateway does. */
const SIZES: Record<string, string[]> = {
  'dall-e-3': ['1024x1024', '1792x1024', '1024x1792'],
  'dall-e-2': ['256x256', '512x512', '1024x1024'],
  'gpt-image-1': ['1024x1024', '1536x1024', '1024x1536'],
};

function checkImageParams(ctx: MockContext, fields: Record<string, unknown>): Response | undefined {
  const size = fields.size;
  const allowed = SIZES[String(fields.model)];
  if (size !== undefined && (typeof size !== 'string' || (allowed && !allowed.includes(size)))) {
    return ctx.invalid(`size must be one of ${allowed?.join(', ') ?? '<w>x<h>'}`, 'size');
  }
  if (fields.quality !== undefined && fields.quality !== 'standard' && fields.quality !== 'hd') return ctx.invalid("quality must be 'standard' or 'hd'", 'quality');
  if (fields.response_format !== undefined && fields.response_format !== 'url' && fields.response_format !== 'b64_json') {
    return ctx.invalid("response_format must be 'url' or 'b64_json'", 'response_format');
  }
  const n = outOfRange(fields, 'n', 1, 10, true);
  return n ? ctx.invalid(n, 'n') : undefined;
}

function images(ctx: MockContext, fields: Record<string, unknown>, prompt: string): Response {
  const n = typeof fields.n === 'number' ? fields.n : 1;
  // A per-request price, n times over, as new-api's image relay bills it.
  ctx.charge({ kind: 'request', model: String(fields.model), stream: false, prompt: 0, completion: 0, n });
  const data = Array.from({ length: n }, (_, i) =>
    fields.response_format === 'b64_json'
      ? { b64_json: PIXEL_PNG_BASE64, revised_prompt: prompt }
      : { url: `${ctx.origin}/mock-files/image-${ctx.id}-${i}.png`, revised_prompt: prompt },
  );
  return ctx.reply(200, { created: Math.floor(ctx.now / 1000), data });
}

/** POST /images/generations */
export function generateImages(ctx: MockContext): Response {
  const { body } = ctx;
  const bad = ctx.checkModel(body.model, 'image', 'image generation');
  if (bad) return bad;
  if (typeof body.prompt !== 'string' || !body.prompt) return ctx.invalid('prompt is required', 'prompt');
  return checkImageParams(ctx, body) ?? images(ctx, body, body.prompt);
}

/** Multipart fields as plain values; numbers where the field is numeric. */
function formFields(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  form.forEach((value, key) => {
    out[key] = typeof value === 'string' && key === 'n' ? Number(value) : typeof value === 'string' && key === 'temperature' ? Number(value) : value;
  });
  return out;
}

/**
 * A multipart form as it is logged: text fields as given, files as { name, type, size }. A
 * repeated key, or one ending in `[]`, becomes an array so no value is lost.
 */
export function describeForm(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key).map((v) => (typeof v === 'string' ? v : { name: (v as File).name, type: v.type, size: v.size }));
    out[key] = values.length > 1 || key.endsWith('[]') ? values : values[0];
  }
  return out;
}

/** POST /images/edits (multipart/form-data): one or several files under `image` or `image[]`, as OpenAI clients send them. */
export function editImages(ctx: MockContext): Response {
  if (!ctx.form) return ctx.invalid('images/edits takes multipart/form-data', null);
  const fields = formFields(ctx.form);
  const bad = ctx.checkModel(fields.model, 'image', 'image edits');
  if (bad) return bad;
  const files = [...ctx.form.getAll('image'), ...ctx.form.getAll('image[]')];
  if (files.length === 0 || files.some((f) => typeof f === 'string' || f.size === 0)) {
    return ctx.invalid("image is required: one or more non-empty files under 'image' or 'image[]'", 'image');
  }
  if (fields.mask !== undefined && !(fields.mask instanceof Blob)) return ctx.invalid('mask must be a file', 'mask');
  if (typeof fields.prompt !== 'string' || !fields.prompt) return ctx.invalid('prompt is required', 'prompt');
  return checkImageParams(ctx, fields) ?? images(ctx, fields, fields.prompt);
}

/** POST /audio/transcriptions (multipart/form-data) */
export function transcribe(ctx: MockContext): Response {
  if (!ctx.form) return ctx.invalid('audio/transcriptions takes multipart/form-data', null);
  const fields = formFields(ctx.form);
  const bad = ctx.checkModel(fields.model, 'audio', 'transcriptions');
  if (bad) return bad;
  const file = fields.file;
  if (!(file instanceof Blob) || file.size === 0) return ctx.invalid('file is required: a non-empty audio file', 'file');
  const range = outOfRange(fields, 'temperature', 0, 1);
  if (range) return ctx.invalid(range, 'temperature');
  const name = (file as File).name || 'audio';
  const text = `Mock transcript of ${name} (${file.size} bytes${fields.language ? `, ${String(fields.language)}` : ''}).`;
  // The mock has no audio duration to bill by: the transcript's words are its completion tokens, at whisper-1's ratios.
  ctx.charge({ kind: 'tokens', model: String(fields.model), stream: false, prompt: 0, completion: text.split(/\s+/).filter(Boolean).length });
  const format = fields.response_format ?? 'json';
  const plain = (type: string, content: string) => new Response(content, { status: 200, headers: { 'content-type': type } });
  switch (format) {
    case 'json':
      return ctx.reply(200, { text });
    case 'verbose_json':
      return ctx.reply(200, { text, language: String(fields.language ?? 'en'), duration: 1.5, segments: [{ id: 0, start: 0, end: 1.5, text }] });
    case 'text':
      return plain('text/plain', text);
    case 'srt':
      return plain('application/x-subrip', `1\n00:00:00,000 --> 00:00:01,500\n${text}\n`);
    case 'vtt':
      return plain('text/vtt', `WEBVTT\n\n00:00:00.000 --> 00:00:01.500\n${text}\n`);
    default:
      return ctx.invalid("response_format must be 'json', 'text', 'srt', 'verbose_json' or 'vtt'", 'response_format');
  }
}

/**
 * GET /mock-files/…: the files the mock's URLs point at (a 1×1 PNG, a few bytes of "video");
 * undefined for any other name.
 */
export function mockFile(path: string): Response | undefined {
  // Content-Length, as a file server sends it, so downloads can report a total.
  if (path.endsWith('.png')) {
    const bytes = fromBase64(PIXEL_PNG_BASE64);
    return new Response(bytes, { headers: { 'content-type': 'image/png', 'content-length': String(bytes.length) } });
  }
  if (path.endsWith('.mp4')) return new Response(new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112]), { headers: { 'content-type': 'video/mp4', 'content-length': '8' } });
  return undefined;
}

const fromBase64 = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

/**
 * A `data:` URL decoded as fetch would. The openai client probes the fetch it is given with
 * `fetch('data:,')`; answering it here keeps the probe out of the request log.
 */
export function dataUrl(href: string): Response {
  const comma = href.indexOf(',');
  const meta = href.slice('data:'.length, comma < 0 ? undefined : comma);
  const payload = comma < 0 ? '' : decodeURIComponent(href.slice(comma + 1));
  const base64 = meta.endsWith(';base64');
  const bytes = base64 ? fromBase64(payload) : new TextEncoder().encode(payload);
  return new Response(bytes, { headers: { 'content-type': (base64 ? meta.slice(0, -';base64'.length) : meta) || 'text/plain;charset=US-ASCII' } });
}
