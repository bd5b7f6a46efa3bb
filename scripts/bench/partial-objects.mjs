// Partial objects of a streamed structured reply, in 8-character deltas, read as partial
// objects through each library's own streaming API, end to end (SSE or model stream in
// memory, partials, the final validated object). Three replies:
//   plan:    a 108 KB plan (95 sections), ours and both peers
//   plan-1m: the same plan grown to 1 MB (880 sections), ours only (the peers' cost grows
//            with the square of the text: about a hundred times the 108 KB figure, an hour)
//   text:    one string field of 512 KB, ours only
//   list:    one array of 25,000 small objects, about 1 MB, ours only (the shape whose copies
//            grew with the square of its length before 0.4)
//   node scripts/bench/partial-objects.mjs                   every run, each in a fresh process, as JSON lines
//   node scripts/bench/partial-objects.mjs <who> [reply]     one run: ours | ours-final-only | openai | ai; prints JSON
// ours:   chat.completions.parse({ stream: true }).partialObjects() (jsonriver, copies that share what did not change)
// openai: chat.completions.stream() with zodResponseFormat: its vendored partial parser on the
//         whole content at every delta; `parsed` of each content.delta event
// ai:     streamObject() (the AI SDK) with a mock model: parsePartialJson on the whole text at
//         every delta; each partialObjectStream value
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';

const DELTA = 8;

function words(seed) {
  const list = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon'.split(' ');
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  return { random, text: (n) => Array.from({ length: n }, () => list[Math.floor(random() * list.length)]).join(' ') };
}

/** The plan: `count` sections (95: about 108 KB of JSON; 880: about 1 MB), the same on every run. */
export function bigPlan(count = 95) {
  const { random, text } = words(1);
  const sections = [];
  for (let i = 0; i < count; i++) {
    sections.push({
      id: i,
      title: text(4),
      done: random() > 0.5,
      estimate: Math.round(random() * 1000) / 10,
      owner: random() > 0.8 ? null : text(2),
      steps: Array.from({ length: 8 }, (_, j) => ({ n: j + 1, text: `${text(12)} — ünïcödé ✓ 🚀`, tags: [text(1), text(1)] })),
    });
  }
  return { title: text(6), summary: text(40), sections };
}

/** One string field of 512 K characters (words, with the plan's non-ASCII text every 12 words). */
export function longText() {
  const { text } = words(2);
  let out = '';
  while (out.length < 512 * 1024) out += `${text(12)} — ünïcödé ✓ 🚀 `;
  return { text: out.slice(0, 512 * 1024) };
}

const Plan = z.object({
  title: z.string(),
  summary: z.string(),
  sections: z.array(
    z.object({
      id: z.number(),
      title: z.string(),
      done: z.boolean(),
      estimate: z.number(),
      owner: z.string().nullable(),
      steps: z.array(z.object({ n: z.number(), text: z.string(), tags: z.array(z.string()) })),
    }),
  ),
});

/** One array of 25,000 small objects, about 1 MB. */
export function longList() {
  const { random, text } = words(3);
  return { items: Array.from({ length: 25_000 }, (_, id) => ({ id, name: text(2), done: random() > 0.5 })) };
}

const Text = z.object({ text: z.string() });
const List = z.object({ items: z.array(z.object({ id: z.number(), name: z.string(), done: z.boolean() })) });

/** The replies: their value, the schema that validates it, and who runs on it. */
const REPLIES = {
  plan: { value: () => bigPlan(95), schema: Plan, who: ['ours', 'ours-final-only', 'openai', 'ai'] },
  'plan-1m': { value: () => bigPlan(880), schema: Plan, who: ['ours', 'ours-final-only'] },
  text: { value: longText, schema: Text, who: ['ours', 'ours-final-only'] },
  list: { value: longList, schema: List, who: ['ours', 'ours-final-only'] },
};

function deltasOf(text) {
  const out = [];
  for (let i = 0; i < text.length; i += DELTA) out.push(text.slice(i, i + DELTA));
  return out;
}

/** An SSE body of chat chunks carrying `deltas`, built before the clock starts. */
function sseBody(deltas) {
  const frame = (delta, finish) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  // As OpenAI sends it: the role in the first delta.
  const text = deltas.map((d, i) => frame(i === 0 ? { role: 'assistant', content: d } : { content: d }, null)).join('') + frame({}, 'stop') + 'data: [DONE]\n\n';
  return new TextEncoder().encode(text);
}
const sseFetch = (bytes) => async () => new Response(bytes, { headers: { 'content-type': 'text/event-stream' } });

/** Ours; `partials: false` reads the same stream to finalChatCompletion() only, the baseline that isolates what partial objects cost. */
async function runOurs(deltas, plan, schema, { partials: wanted = true } = {}) {
  const { Gateway, responseFormat } = await import('unified-gateway');
  const client = new Gateway({ apiKey: 'k', baseURL: 'http://bench.local/v1', fetch: sseFetch(sseBody(deltas)) });
  const started = performance.now();
  const cpu = process.cpuUsage();
  const stream = await client.chat.completions.parse({ model: 'm', messages: [{ role: 'user', content: 'plan' }], response_format: responseFormat(schema, 'plan'), stream: true });
  let partials = 0;
  if (wanted) for await (const _ of stream.partialObjects()) partials++;
  const parsed = (await stream.finalChatCompletion()).choices[0].message.parsed;
  return done(started, cpu, { partials, useful: partials, correct: JSON.stringify(parsed) === JSON.stringify(plan) });
}

async function runOpenAI(deltas, plan, schema) {
  const { default: OpenAI } = await import('openai');
  const { zodResponseFormat } = await import('openai/helpers/zod');
  const client = new OpenAI({ apiKey: 'k', baseURL: 'http://bench.local/v1', fetch: sseFetch(sseBody(deltas)) });
  const started = performance.now();
  const cpu = process.cpuUsage();
  const stream = client.chat.completions.stream({ model: 'm', messages: [{ role: 'user', content: 'plan' }], response_format: zodResponseFormat(schema, 'plan') });
  let partials = 0;
  let useful = 0;
  stream.on('content.delta', ({ parsed }) => {
    partials++;
    if (parsed !== null && parsed !== undefined) useful++;
  });
  const parsed = (await stream.finalChatCompletion()).choices[0].message.parsed;
  return done(started, cpu, { partials, useful, correct: JSON.stringify(parsed) === JSON.stringify(plan) });
}

async function runAI(deltas, plan, schema) {
  const { streamObject } = await import('ai');
  const { MockLanguageModelV3, convertArrayToReadableStream } = await import('ai/test');
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: deltas.length, text: deltas.length, reasoning: 0 } };
  const parts = [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }, ...deltas.map((delta) => ({ type: 'text-delta', id: 't', delta })), { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage }];
  const model = new MockLanguageModelV3({ doStream: async () => ({ stream: convertArrayToReadableStream(parts) }) });
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = streamObject({ model, schema, prompt: 'plan' });
  let partials = 0;
  for await (const _ of result.partialObjectStream) partials++;
  const parsed = await result.object;
  return done(started, cpu, { partials, useful: partials, correct: JSON.stringify(parsed) === JSON.stringify(plan) });
}

function done(started, cpu, extra) {
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, ...extra };
}

const RUNNERS = { ours: runOurs, 'ours-final-only': (d, p, s) => runOurs(d, p, s, { partials: false }), openai: runOpenAI, ai: runAI };

/** One run of `who` on `reply` in a fresh process, as JSON. */
export function measure(who, reply = 'plan') {
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), who, reply], { encoding: 'utf8', timeout: 600_000 });
  return JSON.parse(out.trim().split('\n').pop());
}

/** The reply's shape, for the report. */
export function scenario(reply = 'plan') {
  const text = JSON.stringify(REPLIES[reply].value());
  return { bytes: Buffer.byteLength(text), chars: text.length, deltas: deltasOf(text).length };
}

/** Every run of every reply, each in a fresh process: `{ [reply]: { scenario, [who]: result } }`. */
export function measureAll() {
  const out = {};
  for (const [reply, { who }] of Object.entries(REPLIES)) {
    out[reply] = { scenario: scenario(reply) };
    for (const name of who) out[reply][name] = measure(name, reply);
  }
  return out;
}

const [who, reply = 'plan'] = process.argv.slice(2);
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (who) {
    const { value, schema } = REPLIES[reply];
    const expected = value();
    const deltas = deltasOf(JSON.stringify(expected));
    console.log(JSON.stringify({ who, reply, deltas: deltas.length, ...(await RUNNERS[who](deltas, expected, schema)) }));
  } else {
    for (const [name, runs] of Object.entries(measureAll())) console.log(JSON.stringify({ reply: name, ...runs }));
  }
}
