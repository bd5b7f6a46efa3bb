import { createInterface } from 'node:readline';
import { APIConnectionError, APIError, APITimeoutError, AuthenticationError, type ChatCompletionCreateParamsNonStreaming, type Gateway, type Model } from 'unified-gateway';
import { lessonOf } from '../../core/adapt/lessons.js';
import type { ParamRule } from '../../core/adapt/model-rules.js';
import { stringOption, UsageError } from '../args.js';
import type { Command, CommandIO } from '../command.js';
import { checkOutPath, writeOut } from '../out-file.js';
import type { TextOutput } from '../command.js';

// `unified-gateway probe`: what each chat model behind the gateway takes, measured with the
// user's key, written as a table `modelRules` takes as it is (docs/cli.md#probe). Every
// request is sent as written (`_createAsSent`: no model rule renames or drops anything), with
// the smallest output, and a refusal is read by the client's own `lessonOf`, so the probe
// records exactly what the client would learn from the same 400.

/** At most this many requests per model, retries included (a baseline, again under a renamed limit, six probes). */
export const MAX_REQUESTS_PER_MODEL = 8;
/** Milliseconds per attempt unless `--timeout` says otherwise: one output token needs no more. */
const PROBE_TIMEOUT_MS = 60_000;
const MESSAGES = [{ role: 'user', content: 'Say OK' }] as const;

/** The probes after the baseline, each the baseline plus these parameters. The first named is the one probed. */
const PROBES: ReadonlyArray<{ name: string; params: Readonly<Record<string, unknown>> }> = [
  { name: 'temperature', params: { temperature: 0.2 } },
  { name: 'top_p', params: { top_p: 0.5 } },
  {
    name: 'tools',
    params: { tools: [{ type: 'function', function: { name: 'ok', description: 'Says OK', parameters: { type: 'object', properties: {} } } }], tool_choice: 'auto' },
  },
  {
    name: 'response_format',
    params: {
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'ok', strict: true, schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false } },
      },
    },
  },
  { name: 'presence_penalty', params: { presence_penalty: 0.5 } },
  { name: 'frequency_penalty', params: { frequency_penalty: 0.5 } },
];

/**
 * Words that mark a catalogue entry as something other than a chat model, matched against
 * the tokens of its id (and of `owned_by`, where some gateways name the service: midjourney,
 * suno). A one-api/new-api gateway lists every model as `object: 'model'` with its vendor in
 * `owned_by`, so the id is the only hint; `--models` overrides all of this.
 */
const NOT_CHAT = new Set([
  'embed', 'embedding', 'embeddings', 'rerank', 'reranker', // embeddings, rerankers
  'dall', 'image', 'images', 'imagen', 'flux', 'sdxl', 'diffusion', 'midjourney', 'mj', // images
  'whisper', 'tts', 'transcribe', 'speech', 'audio', 'realtime', 'suno', 'music', // audio
  'video', 'sora', 'veo', 'kling', 'runway', 'hailuo', // video
  'moderation', // moderation
]);
/** Completion-only models (the legacy /v1/completions). */
const COMPLETION_ONLY = /^(gpt-3\.5-turbo-instruct|(text-)?(davinci|babbage|curie|ada)(-\d+)?)$/;

/** Whether a catalogue entry looks like a chat model (see {@link NOT_CHAT}). */
export function looksLikeChatModel(model: Pick<Model, 'id' | 'owned_by'>): boolean {
  const id = model.id.toLowerCase();
  if (COMPLETION_ONLY.test(id.split('/').pop() ?? '')) return false;
  const tokens = `${id} ${String(model.owned_by ?? '').toLowerCase()}`.split(/[^a-z0-9]+/);
  // `video2`, `veo3`, `embedding-001`: a word followed by digits counts as the word.
  return !tokens.some((token) => NOT_CHAT.has(token) || NOT_CHAT.has(token.replace(/\d+$/, '')) || token.startsWith('embed'));
}

/**
 * The chat models to probe, from the live catalogue: the one place the list comes from (once
 * the gateway's /api/pricing is read, its `supported_endpoint_types` replace the heuristics).
 */
export async function chatModels(gateway: Gateway, signal: AbortSignal): Promise<{ ids: string[]; listed: number; responsesOnly: Set<string>; from: 'pricing' | 'models'; usd?: number | undefined }> {
  // The gateway's own table first: each model's endpoints, as the gateway routes them (new-api's /api/pricing).
  const info = await gateway.models._gatewayInfo({ signal });
  // A table without a single usable chat model (a trimmed or odd one) is no catalogue: /v1/models is.
  if (info && [...info.models.values()].some((entry) => entry.supportedEndpointTypes.length > 0)) {
    const entries = [...info.models.values()];
    // new-api names audio and completion-only models 'openai' too: the name rules still apply.
    const chat = entries.filter((entry) => entry.supportedEndpointTypes.some((type) => type === 'openai' || type === 'openai-response') && looksLikeChatModel({ id: entry.modelName, owned_by: '' }));
    const responsesOnly = new Set(chat.filter((entry) => !entry.supportedEndpointTypes.includes('openai')).map((entry) => entry.modelName));
    // At most: every request of every model probed at its price, ~60 input tokens (the tool and schema probes) and 1 output token.
    const group = info.groupRatio.default ?? 1;
    const quota = chat.filter((entry) => !responsesOnly.has(entry.modelName)).reduce((sum, entry) => sum + MAX_REQUESTS_PER_MODEL * (entry.quotaType === 1 ? entry.modelPrice * info.quotaPerUnit : (60 + entry.completionRatio) * entry.modelRatio) * group, 0);
    const usd = info.displayType === 'USD' || info.displayType === null ? quota / info.quotaPerUnit : undefined;
    return { ids: chat.map((entry) => entry.modelName), listed: entries.length, responsesOnly, from: 'pricing', usd };
  }
  const list = await gateway.models.list({ signal });
  const ids = [...new Set(list.data.filter(looksLikeChatModel).map((m) => m.id))];
  return { ids, listed: new Set(list.data.map((m) => m.id)).size, responsesOnly: new Set(), from: 'models' };
}

/** What was measured of one model. */
export interface ModelReport {
  model: string;
  params: Record<string, ParamRule>;
  endpoint?: 'responses' | undefined;
  /** What could not be measured and why (`what` is a parameter, or `model` when nothing could be). */
  notMeasured: Array<{ what: string; reason: string }>;
  requests: number;
  /** Ctrl-C stopped it: what it holds was measured before. */
  interrupted?: boolean | undefined;
}

/** How {@link probeModel} sends: the command's Ctrl-C signal, and ms per attempt. */
export interface ProbeOptions {
  signal: AbortSignal;
  timeout?: number | undefined;
}

/** How a request ended, as the probe reads it. */
type Outcome = { kind: 'ok' } | { kind: 'endpoint' } | { kind: 'refused'; param: string; rule: string } | { kind: 'failed'; reason: string };

/** A gateway's refusal of the output limit itself (too small for the model to answer): never a parameter's refusal. */
const LIMIT_TOO_SMALL =
  /max_tokens or model output limit was reached|could not finish the message because max_tokens|\b(max_tokens|max_completion_tokens|max_output_tokens)\b[^.]{0,60}\b(too (small|low)|at least|greater than|minimum)|output limit|minimum (value|number) of (output )?tokens/i;

const shorten = (text: string, max = 140): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** What a failed request says: a lesson about one of `probed`, the endpoint, or a failure that teaches nothing. Throws what must stop the whole probe. */
function outcomeOf(error: unknown, body: Record<string, unknown>, probed: readonly string[], signal: AbortSignal): Outcome {
  if (signal.aborted) throw error;
  // A key the gateway refuses fails every model alike: stop, as any other command would.
  if (AuthenticationError.isInstance(error)) throw error;
  if (APIError.isInstance(error)) {
    const refusal = error.status === 400 || error.status === 404 || error.status === 422;
    if (refusal && LIMIT_TOO_SMALL.test(error.message)) return { kind: 'failed', reason: `the output limit of 1 token was refused (${error.status}: ${shorten(error.message)})` };
    const lesson = refusal ? lessonOf(error, body) : undefined;
    if (lesson && 'endpoint' in lesson) return { kind: 'endpoint' };
    if (lesson && probed.includes(lesson.param) && lesson.rule !== lesson.param) return { kind: 'refused', param: lesson.param, rule: lesson.rule };
    if (lesson) return { kind: 'failed', reason: `refused, naming '${lesson.param}'` };
    if (error.status === 429) return { kind: 'failed', reason: 'rate limited (429)' };
    if (error.status >= 500) return { kind: 'failed', reason: `gateway error (${error.status})` };
    return { kind: 'failed', reason: shorten(error.message) };
  }
  if (APITimeoutError.isInstance(error)) return { kind: 'failed', reason: 'timed out' };
  if (APIConnectionError.isInstance(error)) return { kind: 'failed', reason: `network error (${shorten(error instanceof Error ? error.message : String(error))})` };
  return { kind: 'failed', reason: error instanceof Error ? `${error.name}: ${shorten(error.message)}` : shorten(String(error)) };
}

/**
 * Measures one model with at most {@link MAX_REQUESTS_PER_MODEL} requests: a baseline with
 * `max_tokens: 1` (a refusal naming it renames the limit and the baseline is sent again; an
 * endpoint refusal records `endpoint: 'responses'` and ends there), then one request per probe.
 * Only a refusal that `lessonOf` reads as naming the probed parameter is recorded.
 */
export async function probeModel(gateway: Gateway, model: string, options: ProbeOptions): Promise<ModelReport> {
  const report: ModelReport = { model, params: {}, notMeasured: [], requests: 0 };
  try {
    await measure(gateway, report, options);
  } catch (error) {
    if (!options.signal.aborted) throw error;
    report.interrupted = true;
    report.notMeasured.push({ what: 'the rest', reason: 'interrupted' });
  }
  return report;
}

async function measure(gateway: Gateway, report: ModelReport, options: ProbeOptions): Promise<void> {
  const { model } = report;
  // Every attempt counts, retries too: a retry is allowed only where the budget has room for
  // it beyond every request still planned, so a model never gets more than MAX_REQUESTS_PER_MODEL.
  const counted = gateway.withOptions({ hooks: { onRequest: () => void report.requests++ } });
  const send = async (body: Record<string, unknown>, probed: readonly string[], plannedAfter: number): Promise<Outcome> => {
    const spare = MAX_REQUESTS_PER_MODEL - report.requests - 1 - plannedAfter;
    try {
      await counted.chat.completions._createAsSent(body as unknown as ChatCompletionCreateParamsNonStreaming, { signal: options.signal, maxRetries: spare >= 1 ? 1 : 0, timeout: options.timeout ?? PROBE_TIMEOUT_MS });
      return { kind: 'ok' };
    } catch (error) {
      return outcomeOf(error, body, probed, options.signal);
    }
  };

  // The baseline: which name bounds the output. max_tokens first; a refusal that names another (or none) tries max_completion_tokens once.
  let limit = 'max_tokens';
  for (;;) {
    // After the first baseline, room is kept for a second one under the limit's other name.
    const outcome = await send({ model, messages: MESSAGES, [limit]: 1 }, [limit], PROBES.length + (limit === 'max_tokens' ? 1 : 0));
    if (outcome.kind === 'ok') break;
    if (outcome.kind === 'endpoint') {
      report.endpoint = 'responses';
      return;
    }
    if (outcome.kind === 'refused' && limit === 'max_tokens') {
      report.params.max_tokens = outcome.rule;
      limit = outcome.rule === 'unsupported' || outcome.rule === 'drop' ? 'max_completion_tokens' : outcome.rule;
      continue;
    }
    if (outcome.kind === 'refused') {
      report.notMeasured.push({ what: 'model', reason: `it refuses max_tokens and ${limit}: no request with a bounded output could be sent` });
      return;
    }
    report.notMeasured.push({ what: 'model', reason: outcome.reason });
    return;
  }
  // max_tokens refused without a name to use, and max_completion_tokens answered: that is the rename.
  if (report.params.max_tokens === 'unsupported' && limit === 'max_completion_tokens') report.params.max_tokens = limit;

  for (const [i, probe] of PROBES.entries()) {
    if (report.requests >= MAX_REQUESTS_PER_MODEL) {
      report.notMeasured.push({ what: probe.name, reason: `the budget of ${MAX_REQUESTS_PER_MODEL} requests was spent` });
      continue;
    }
    const outcome = await send({ model, messages: MESSAGES, [limit]: 1, ...probe.params }, Object.keys(probe.params), PROBES.length - i - 1);
    if (outcome.kind === 'refused') report.params[outcome.param] = outcome.rule;
    else if (outcome.kind === 'failed') report.notMeasured.push({ what: probe.name, reason: outcome.reason });
    else if (outcome.kind === 'endpoint') report.notMeasured.push({ what: probe.name, reason: 'refused as not served on chat/completions, after a baseline that was' });
  }
}

/** The table `modelRules` takes: only models with findings, every key sorted. */
export function rulesTable(reports: readonly ModelReport[]): Record<string, { endpoint?: 'responses'; params?: Record<string, ParamRule> }> {
  const table: Record<string, { endpoint?: 'responses'; params?: Record<string, ParamRule> }> = {};
  for (const report of [...reports].sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0))) {
    const names = Object.keys(report.params).sort();
    if (names.length === 0 && report.endpoint === undefined) continue;
    const entry: { endpoint?: 'responses'; params?: Record<string, ParamRule> } = {};
    if (report.endpoint) entry.endpoint = report.endpoint;
    if (names.length > 0) entry.params = Object.fromEntries(names.map((name) => [name, report.params[name] as ParamRule]));
    table[report.model] = entry;
  }
  return table;
}

/** One line of the summary for a model. */
export function summaryLine(report: ModelReport): string {
  const found = Object.keys(report.params)
    .sort()
    .map((param) => {
      const rule = report.params[param] as string;
      if (rule !== 'unsupported') return `${param} → ${rule}`;
      return param === 'response_format' ? 'response_format unsupported (json_schema refused)' : `${param} unsupported`;
    });
  if (report.endpoint) found.unshift('answers only on /v1/responses (endpoint: responses)');
  const whole = report.notMeasured.find((n) => n.what === 'model');
  const missing = report.notMeasured.filter((n) => n.what !== 'model').map((n) => `${n.what} (${n.reason})`);
  const parts: string[] = [];
  if (found.length > 0) parts.push(found.join(', '));
  if (whole) parts.push(`not measured: ${whole.reason}`);
  else if (missing.length > 0) parts.push(`not measured: ${missing.join(', ')}`);
  if (parts.length === 0) parts.push('takes everything probed');
  return `  ${report.model}: ${parts.join('; ')}`;
}

/** One line from stdin (empty at its end); rejects when `signal` aborts. */
function readAnswer(stdin: CommandIO['stdin'], signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: stdin, terminal: false });
    let settled = false;
    const settle = (then: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      lines.close();
      then();
    };
    const onAbort = () => settle(() => reject(signal.reason instanceof Error ? signal.reason : new Error('Aborted')));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    lines.once('line', (line) => settle(() => resolve(line)));
    lines.once('close', () => settle(() => resolve('')));
  });
}

/** `unified-gateway probe`: measures what each chat model takes, writes a `modelRules` table. */
export const probe: Command = {
  name: 'probe',
  summary: 'Measure what each chat model takes and write a modelRules table',
  help: `Usage: unified-gateway probe [--models a,b] [--out FILE] [--yes]

Measure, with your key, what each chat model of the gateway takes, and print a JSON table
that the client's modelRules option takes as it is:
  { "gpt-5": { "params": { "max_tokens": "max_completion_tokens", "temperature": "unsupported" } },
    "o3-pro": { "endpoint": "responses" } }

Each model gets at most ${MAX_REQUESTS_PER_MODEL} requests of one output token ('Say OK'): a baseline with
max_tokens, then temperature 0.2, top_p 0.5, a tool, a json_schema response_format,
presence_penalty 0.5 and frequency_penalty 0.5. Only a refusal that names the parameter
probed is recorded; a rate limit, a server error, a timeout or a refused output limit is
reported as not measured and records nothing. Models without findings are left out.

The number of models and requests is shown first; on a terminal you confirm with y,
elsewhere pass --yes. A summary goes to stderr.

Options:
  --models a,b   Probe these model ids instead of the catalogue's chat models
  --out FILE     Write the table to FILE instead of stdout, then print the path written
  --yes, -y      Do not ask before sending (required without a terminal)

Examples:
  unified-gateway probe
  unified-gateway probe --models gpt-5,o3-pro --yes
  unified-gateway probe --yes --out model-rules.json`,
  options: { models: { type: 'string' }, out: { type: 'string', short: 'o' }, yes: { type: 'boolean', short: 'y' } },
  async run({ values, client, signal, io }) {
    const out = stringOption(values, 'out');
    if (values.out !== undefined && out === undefined) throw new UsageError('Option --out needs a file name', 'probe');
    let chosen: string[] | undefined;
    if (values.models !== undefined) {
      chosen = [...new Set(String(values.models).split(',').map((id) => id.trim()).filter(Boolean))];
      if (chosen.length === 0) throw new UsageError('Option --models needs model ids, separated by commas (e.g. --models gpt-5,o3-pro)', 'probe');
    }
    if (out !== undefined) await checkOutPath(out, 'probe');
    const gateway = client();
    const timeout = stringOption(values, 'timeout') === undefined ? PROBE_TIMEOUT_MS : undefined;

    let ids: string[];
    // Models the gateway's table says answer only on /v1/responses: recorded as such, without a request.
    let responsesOnly = new Set<string>();
    let usd: number | undefined;
    if (chosen) {
      ids = chosen;
      io.stderr.write(`Probing ${ids.length} model${ids.length === 1 ? '' : 's'} named by --models.\n`);
    } else {
      const catalogue = await chatModels(gateway, signal);
      ids = catalogue.ids;
      responsesOnly = catalogue.responsesOnly;
      usd = catalogue.usd;
      const skipped = catalogue.listed - ids.length;
      io.stderr.write(
        catalogue.from === 'pricing'
          ? `The gateway's /api/pricing lists ${catalogue.listed} models; ${ids.length} answer chat requests (${responsesOnly.size} only on /v1/responses, recorded without a request)${skipped > 0 ? `; ${skipped} others skipped` : ''}.\n`
          : `The gateway lists ${catalogue.listed} models; ${ids.length} look like chat models${skipped > 0 ? ` (${skipped} skipped: embeddings, images, audio, video, moderation, completion-only; --models picks others)` : ''}.\n`,
      );
    }
    // Nothing to measure: nothing is written either (an --out file keeps what it had).
    if (ids.length === 0) throw new UsageError('no chat model to probe: the catalogue lists none that looks like one; name them with --models a,b', 'probe');
    const most = (ids.length - responsesOnly.size) * MAX_REQUESTS_PER_MODEL;
    io.stderr.write(`At most ${most} requests (${MAX_REQUESTS_PER_MODEL} per model): about ${most} requests of ~10 input tokens (the tool and schema probes add a few dozen) and 1 output token each${usd === undefined ? '' : `, at most $${usd < 0.01 ? usd.toFixed(4) : usd.toFixed(2)} at the gateway's own prices`}.\n`);
    if (!values.yes) {
      if (io.stdin.isTTY !== true) throw new UsageError('probe sends paid requests: pass --yes to confirm without a terminal', 'probe');
      io.stderr.write('Send them? [y/N] ');
      const answer = await readAnswer(io.stdin, signal);
      if (!/^\s*y(es)?\s*$/i.test(answer)) {
        io.stderr.write('Nothing was sent.\n');
        return;
      }
    }

    const reports: ModelReport[] = [];
    const progress = probeProgress(io.stderr, ids.length);
    for (const [i, model] of ids.entries()) {
      if (signal.aborted) break;
      progress.at(i, model);
      try {
        reports.push(responsesOnly.has(model) ? { model, params: {}, endpoint: 'responses', notMeasured: [], requests: 0 } : await probeModel(gateway, model, { signal, timeout }));
      } catch (error) {
        progress.clear();
        throw error;
      }
    }
    progress.clear();
    const interrupted = signal.aborted;

    const sent = reports.reduce((n, r) => n + r.requests, 0);
    const lines = reports.map(summaryLine);
    const unreached = ids.length - reports.length;
    if (interrupted) lines.push(`Interrupted: ${unreached} of ${ids.length} models not reached; the table has what was measured before Ctrl-C.`);
    // Ids and the gateway's words come from the network: no control character reaches the terminal.
    io.stderr.write(printable(`Probed ${reports.length} model${reports.length === 1 ? '' : 's'} with ${sent} request${sent === 1 ? '' : 's'}:\n${lines.join('\n')}\n`));

    const text = `${JSON.stringify(rulesTable(reports), null, 2)}\n`;
    if (out === undefined) io.stdout.write(text);
    else {
      // After Ctrl-C the command's signal is aborted; what was paid for is still written.
      try {
        await writeOut(out, new TextEncoder().encode(text), interrupted ? new AbortController().signal : signal);
      } catch (error) {
        // What was paid for is not lost with the file: the table goes to stdout.
        io.stdout.write(text);
        throw error;
      }
      io.stdout.write(`${out}\n`);
    }
    if (interrupted) throw signal.reason instanceof Error ? signal.reason : new Error('Interrupted');
  },
};

/** Width of the progress bar, in characters. */
const BAR = 24;

/**
 * The probe's progress on stderr: on a terminal one line redrawn in place
 * (`[######..................] 6/24 gpt-5`), elsewhere a plain line per model.
 */
function probeProgress(out: TextOutput, total: number): { at(done: number, model: string): void; clear(): void } {
  const tty = out.isTTY === true;
  let drawn = false;
  return {
    at(done, model) {
      const filled = total === 0 ? BAR : Math.round((done / total) * BAR);
      // An id from the network never writes control characters to the terminal.
      const text = printable(`probing ${done + 1}/${total} ${model}`);
      if (!tty) return void out.write(`${text}\n`);
      out.write(`\r\x1b[2K[${'#'.repeat(filled)}${'.'.repeat(BAR - filled)}] ${text}`);
      drawn = true;
    },
    clear() {
      if (drawn) out.write('\r\x1b[2K');
      drawn = false;
    },
  };
}

/** Text from the network as the terminal may show it: control characters but newlines become `?`. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '?');
}
