// The in-process parts of `npm run bench:models` (models.mjs): the canonical request against
// every id of the strict catalogue through four clients, and the 5-step tool loops per
// family through three. Everything talks to one strict mock served over HTTP on 127.0.0.1
// (`mock.listen()`); each client gets a `fetch` that records the status of every response
// that reached it, so a 400 the client learnt from and answered past is still counted.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { Gateway, UnsupportedParameterError, defineTool } from 'unified-gateway';
import { createUnifiedGateway } from 'unified-gateway/ai-sdk';
import { createMockGateway, strictFamilies } from 'unified-gateway/testing';
import { z } from 'zod';

export const KEY = 'bench-key';

/**
 * The user's rules that allow the drops the strict catalogue's families need for the
 * canonical request (temperature 0.2, max_tokens 512, one tool): the o-series and gpt-5
 * take only the default temperature and top_p (the built-in table renames max_tokens on its
 * own); OpenRouter's `openai/gpt-5` and `openai/o4-mini` are read by the built-in table by
 * their last segment, so they need the same drops; o1-mini and deepseek-r1 take no tools, and
 * the canonical request does not force a tool call (tool_choice unset), so a user who will
 * take an answer without tools from them says so (with tool_choice and parallel_tool_calls:
 * the AI SDK sends tool_choice 'auto' beside its tools, and a drop of tools does not take it along). Without the last two entries those models
 * are refused before sending (o1-mini by the built-in table; deepseek-r1 by what its first
 * 400 taught): see the `ours, no tool drops` row.
 */
export const SAMPLING_DROPS = { params: { temperature: 'drop', top_p: 'drop' } };
export const RULES = {
  'gpt-5*': SAMPLING_DROPS,
  'o1*': SAMPLING_DROPS,
  'o3*': SAMPLING_DROPS,
  'o4*': SAMPLING_DROPS,
  'openai/gpt-5*': SAMPLING_DROPS,
  'openai/o4*': SAMPLING_DROPS,
  'o1-mini': { params: { temperature: 'drop', top_p: 'drop', tools: 'drop', tool_choice: 'drop', parallel_tool_calls: 'drop' } },
  'deepseek-r1': { params: { tools: 'drop', tool_choice: 'drop', parallel_tool_calls: 'drop' } },
};
const TOOL_PARAMS = ['tools', 'tool_choice', 'parallel_tool_calls'];
const RULES_NO_TOOL_DROPS = Object.fromEntries(Object.entries(RULES).map(([k, v]) => [k, { params: Object.fromEntries(Object.entries(v.params).filter(([p]) => !TOOL_PARAMS.includes(p))) }]).filter(([, v]) => Object.keys(v.params).length > 0));

const WEATHER_SCHEMA = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
const TOOL = { type: 'function', function: { name: 'get_weather', description: 'Current weather for a city', parameters: WEATHER_SCHEMA } };
const USER = { role: 'user', content: 'Weather in Paris?' };
/** The canonical request. */
export const canonical = (model, stream) => ({ model, messages: [USER], temperature: 0.2, max_tokens: 512, tools: [TOOL], ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}) });

/** A fetch that records the status of every response it hands over. */
function recordingFetch(log) {
  return async (input, init) => {
    const res = await fetch(input, init);
    log.push(res.status);
    return res;
  };
}

/** The mock, served over HTTP; `sent()` counts the chat/responses requests it received. */
export async function startMock(extraModels) {
  const { defaultModels, strictModels } = await import('unified-gateway/testing');
  const mock = extraModels ? createMockGateway({ apiKey: KEY, models: [...defaultModels, ...strictModels, ...extraModels] }) : createMockGateway({ apiKey: KEY, catalog: 'strict' });
  const served = await mock.listen();
  return { mock, url: served.url, close: served.close };
}

const idsOf = (family) => family.ids;

/** One call's outcome: answered, refused (UnsupportedParameterError, nothing sent), gateway (a 4xx error after sending), other. */
function classify(error, sentCount) {
  if (!error) return 'answered';
  const status = error.status ?? error.statusCode ?? error.cause?.statusCode ?? error.lastError?.statusCode;
  if (error instanceof UnsupportedParameterError && sentCount === 0) return 'refused';
  if (sentCount > 0 && (status === 400 || status === 404 || status === 422)) return 'gateway';
  return 'other';
}

/** The paths of the matrix: each makes one call of the canonical request and resolves (or throws). */
function matrixPaths(url) {
  const ours = (modelRules) => {
    const wire = [];
    const adapted = [];
    const client = new Gateway({ apiKey: KEY, baseURL: url, maxRetries: 0, logLevel: 'off', fetch: recordingFetch(wire), ...(modelRules ? { modelRules } : {}), onAdapt: (e) => adapted.push(e) });
    return {
      wire,
      adapted,
      call: async (model, stream) => {
        const body = canonical(model, stream);
        if (!stream) {
          const c = await client.chat.completions.create(body);
          return c.choices[0]?.finish_reason;
        }
        const s = await client.chat.completions.create(body);
        const c = await s.finalChatCompletion();
        return c.choices[0]?.finish_reason;
      },
    };
  };
  const openaiPath = () => {
    const wire = [];
    const client = new OpenAI({ apiKey: KEY, baseURL: url, maxRetries: 0, fetch: recordingFetch(wire) });
    return {
      wire,
      call: async (model, stream) => {
        if (!stream) return (await client.chat.completions.create(canonical(model, false))).choices[0]?.finish_reason;
        let finish;
        for await (const chunk of await client.chat.completions.create(canonical(model, true))) finish = chunk.choices[0]?.finish_reason ?? finish;
        return finish;
      },
    };
  };
  const aiPath = () => {
    const wire = [];
    const provider = createOpenAICompatible({ name: 'gateway', baseURL: url, apiKey: KEY, includeUsage: true, fetch: recordingFetch(wire) });
    const tools = { get_weather: tool({ description: 'Current weather for a city', inputSchema: jsonSchema(WEATHER_SCHEMA) }) };
    const args = (model) => ({ model: provider(model), messages: [USER], temperature: 0.2, maxOutputTokens: 512, tools, maxRetries: 0 });
    return {
      wire,
      call: async (model, stream) => {
        if (!stream) return (await generateText(args(model))).finishReason;
        let failure;
        const result = streamText({ ...args(model), onError: ({ error }) => (failure ??= error) });
        let finish;
        for await (const part of result.fullStream) {
          if (part.type === 'error') failure ??= part.error;
          if (part.type === 'finish') finish = part.finishReason;
        }
        if (failure) throw failure;
        return finish;
      },
    };
  };
  return [
    { name: 'ours, your rules', key: 'a', make: () => ours(RULES) },
    { name: 'ours, no rules', key: 'b', make: () => ours(undefined) },
    { name: 'ours, no tool drops', key: 'a2', make: () => ours(RULES_NO_TOOL_DROPS) },
    { name: 'openai 6', key: 'c', make: openaiPath },
    { name: '@ai-sdk/openai-compatible 2', key: 'd', make: aiPath },
  ];
}

/** What reached the mock for a call: the chat or responses bodies (not models or other reads). */
const sentBodies = (mock, from) => mock.requests.slice(from).filter((r) => r.path === 'chat/completions' || r.path === 'responses');

/**
 * A parameter of the canonical request missing from what was sent, renames aside (max_tokens
 * as max_completion_tokens or, on /v1/responses, max_output_tokens; tools flattened there).
 */
function droppedFrom(body) {
  if (!body || typeof body !== 'object') return [];
  const out = [];
  if (body.temperature === undefined) out.push('temperature');
  if (body.max_tokens === undefined && body.max_completion_tokens === undefined && body.max_output_tokens === undefined) out.push('max_tokens');
  if (!Array.isArray(body.tools) || body.tools.length === 0) out.push('tools');
  return out;
}

export async function runMatrix({ log = console.log } = {}) {
  const { mock, url, close } = await startMock();
  const ids = strictFamilies.flatMap((f) => idsOf(f).map((id) => ({ id, family: f.name })));
  const rows = [];
  try {
    for (const path of matrixPaths(url)) {
      const p = path.make();
      const perFamily = {};
      const totals = { answered: 0, refused: 0, gateway: 0, other: 0, calls: 0, wire4xx: 0, silentDrops: 0, ruleDrops: 0, refusedButSent: 0 };
      const examples = {};
      for (const { id, family } of ids) {
        for (const stream of [false, true]) {
          const from = mock.requests.length;
          const wireFrom = p.wire.length;
          let error;
          try {
            await p.call(id, stream);
          } catch (e) {
            error = e;
          }
          const sent = sentBodies(mock, from);
          const outcome = classify(error, sent.length);
          const f = (perFamily[family] ??= { answered: 0, refused: 0, gateway: 0, other: 0, calls: 0 });
          f[outcome]++;
          f.calls++;
          totals[outcome]++;
          totals.calls++;
          totals.wire4xx += p.wire.slice(wireFrom).filter((s) => s >= 400 && s < 500).length;
          if (outcome === 'refused' && sent.length > 0) totals.refusedButSent++;
          if (outcome === 'answered') {
            const dropped = droppedFrom(sent.at(-1)?.body);
            if (dropped.length) {
              if (path.key === 'a' || path.key === 'a2') totals.ruleDrops++;
              else totals.silentDrops++;
            }
          }
          if (outcome !== 'answered') {
            const why = `${error?.name ?? 'Error'}: ${String(error?.message ?? error).replace(/\s+/g, ' ').slice(0, 160)}`;
            (examples[family] ??= new Set()).add(`${outcome} (${stream ? 'stream' : 'json'}): ${why}`);
          }
        }
      }
      rows.push({ path: path.name, key: path.key, totals, perFamily, examples: Object.fromEntries(Object.entries(examples).map(([k, v]) => [k, [...v]])) });
      log(`matrix ${path.name}: ${totals.answered}/${totals.calls} answered, ${totals.refused} refused before sending, ${totals.gateway} gateway 4xx, ${totals.other} other; 4xx on the wire ${totals.wire4xx}; answered with a parameter left out: ${totals.ruleDrops} by a rule, ${totals.silentDrops} silently; refused but sent ${totals.refusedButSent}`);
    }
  } finally {
    await close();
  }
  return { ids: ids.length, families: strictFamilies.length, rows };
}

// ---- tool loops ----

const STEPS = 5;
const CITIES = ['Paris', 'Lyon', 'Nice', 'Lille'];
/** Four tool-call replies, then an answer: five model calls (the mock's own replies end a loop after one tool result). */
const script = () => [...CITIES.map((city) => ({ toolCalls: [{ name: 'get_weather', arguments: { city } }] })), { content: 'Sunny everywhere.' }];
const weatherTool = defineTool({ name: 'get_weather', description: 'Current weather for a city', parameters: z.object({ city: z.string() }), run: ({ city }) => `14 C in ${city}` });

function loopWays(url, wire) {
  const client = new Gateway({ apiKey: KEY, baseURL: url, maxRetries: 0, logLevel: 'off', modelRules: RULES, fetch: recordingFetch(wire) });
  const gw = createUnifiedGateway({ client });
  const messages = () => [{ role: 'user', content: 'Weather in Paris, Lyon, Nice and Lille, one at a time?' }];
  const base = (model) => ({ model, messages: messages(), tools: [weatherTool], temperature: 0.2, max_tokens: 512 });
  const runTools = (stream) => async (model) => {
    await client.chat.completions.runTools({ ...base(model), ...(stream ? { stream: true } : {}) }, { maxTurns: 8 });
  };
  const handWritten = (stream) => async (model) => {
    const msgs = messages();
    for (let turn = 1; turn <= 8; turn++) {
      const body = { ...base(model), messages: msgs };
      const completion = stream ? await (await client.chat.completions.create({ ...body, stream: true })).finalChatCompletion() : await client.chat.completions.parse(body);
      const message = completion.choices[0]?.message;
      if (!message?.tool_calls?.length) return;
      msgs.push(message); // the reply as it came (docs/tools.md, "Writing your own loop")
      for (const call of message.tool_calls) msgs.push({ role: 'tool', tool_call_id: call.id, content: `14 C in ${JSON.parse(call.function.arguments).city}` });
    }
  };
  const aiTools = { get_weather: tool({ description: 'Current weather for a city', inputSchema: jsonSchema(WEATHER_SCHEMA), execute: async ({ city }) => `14 C in ${city}` }) };
  const aiArgs = (model) => ({ model: gw(model), prompt: 'Weather in Paris, Lyon, Nice and Lille, one at a time?', tools: aiTools, temperature: 0.2, maxOutputTokens: 512, stopWhen: stepCountIs(STEPS), maxRetries: 0 });
  const aiGenerate = async (model) => {
    await generateText(aiArgs(model));
  };
  const aiStream = async (model) => {
    let failure;
    const result = streamText({ ...aiArgs(model), onError: ({ error }) => (failure ??= error) });
    for await (const part of result.fullStream) if (part.type === 'error') failure ??= part.error;
    if (failure) throw failure;
    await result.steps;
  };
  return [
    { name: 'runTools', run: runTools(false) },
    { name: 'runTools, streamed', run: runTools(true) },
    { name: 'hand-written loop', run: handWritten(false) },
    { name: 'hand-written loop, streamed', run: handWritten(true) },
    { name: 'AI SDK provider, generateText', run: aiGenerate },
    { name: 'AI SDK provider, streamText', run: aiStream },
  ];
}

export async function runLoops({ log = console.log } = {}) {
  const { mock, url, close } = await startMock();
  const wire = [];
  const ways = loopWays(url, wire);
  const results = [];
  try {
    for (const family of strictFamilies) {
      const model = family.ids[0];
      const takesTools = !family.refusedParams.includes('tools');
      for (const way of ways) {
        mock.reset();
        // The responses-only families take the same script on /v1/responses (as output items).
        if (takesTools) mock.script(script());
        const wireFrom = wire.length;
        let error;
        try {
          await way.run(model);
        } catch (e) {
          error = e;
        }
        const statuses = wire.slice(wireFrom);
        const requests = mock.requests.filter((r) => r.path === 'chat/completions' || r.path === 'responses').length;
        results.push({
          family: family.name,
          model,
          way: way.name,
          ok: !error,
          // Model calls answered: the steps that ran.
          steps: statuses.filter((s) => s >= 200 && s < 300).length,
          requests,
          wire400: statuses.filter((s) => s === 400).length,
          wire4xx: statuses.filter((s) => s >= 400 && s < 500).length,
          error: error ? `${error.name}: ${String(error.message).replace(/\s+/g, ' ').slice(0, 220)}` : undefined,
        });
      }
    }
  } finally {
    await close();
  }
  for (const way of ways) {
    const mine = results.filter((r) => r.way === way.name);
    log(`loops ${way.name}: ${mine.filter((r) => r.ok).length}/${mine.length} families finished; 4xx ${mine.reduce((a, r) => a + r.wire4xx, 0)}, 400s ${mine.reduce((a, r) => a + r.wire400, 0)} (${mine.filter((r) => r.wire400 > 0).map((r) => r.family).join(', ') || 'none'}); steps ${mine.map((r) => r.steps).join(',')}`);
  }
  return results;
}
