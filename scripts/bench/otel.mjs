// npm run bench:otel: what OpenTelemetry costs the client per stream frame. The bench
// server (server.mjs, its own process) streams 20,000 chat chunks; fresh client processes,
// in turn, read it and report the client's CPU per frame:
//   bare     no OpenTelemetry in the process at all;
//   off      the OpenTelemetry SDK set up as an app does (AsyncLocalStorage context, W3C
//            propagation, a batch span processor), the client without `telemetry`;
//   traces   the same, the client with openTelemetry() (metrics to the API's no-op provider);
//   metrics  the same, and a MeterProvider whose histograms aggregate every record.
// Goal: traces <= 1.2x off (what the client's telemetry adds to an app that traces).
//   node scripts/bench/otel.mjs                     the comparison (BENCH_ROUNDS rounds, default 7)
//   BENCH_COUNT=instructions node scripts/bench/otel.mjs
//                                                   the same in CPU instructions per frame, under
//                                                   valgrind (callgrind): steady on a loaded machine
//   node scripts/bench/otel.mjs observer            the observer alone: chunk() on a call span,
//                                                   frames parsed beforehand, traces and metrics
//   node scripts/bench/otel.mjs client MODE PORT [STREAMS]   one measurement (what the comparison spawns)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FRAMES = 20_000; // server.mjs SSE_FRAMES
const STREAMS = 5;
const root = fileURLToPath(new URL('../..', import.meta.url));

/** The SDK as an app sets it up: AsyncLocalStorage context, W3C propagation, a batch span processor. */
async function appSDK() {
  const { context, propagation } = await import('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const { W3CTraceContextPropagator } = await import('@opentelemetry/core');
  const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { MeterProvider, MetricReader } = await import('@opentelemetry/sdk-metrics');
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  /** Spans are exported (and dropped) as in an app; metrics aggregate and are collected on demand. */
  const exporter = { export: (_spans, done) => done({ code: 0 }), shutdown: () => Promise.resolve() };
  class Reader extends MetricReader {
    onForceFlush = () => Promise.resolve();
    onShutdown = () => Promise.resolve();
  }
  return {
    tracerProvider: new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] }),
    meterProvider: () => new MeterProvider({ readers: [new Reader()] }),
  };
}

if (process.argv[2] === 'observer') {
  // Steady within a process: 12 streams of 20,000 frames, the first 2 warm up, the median kept.
  const { openTelemetry } = await import('unified-gateway/otel');
  const sdk = await appSDK();
  const frame = (i) => JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'bench-model', system_fingerprint: 'fp', choices: [{ index: 0, delta: { content: `w${i} ` }, logprobs: null, finish_reason: null }] });
  const texts = Array.from({ length: 1000 }, (_, i) => frame(i));
  for (const mode of ['traces', 'metrics']) {
    const telemetry = openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: mode === 'metrics' ? sdk.meterProvider() : undefined });
    const results = [];
    for (let round = 0; round < 12; round++) {
      const call = telemetry.startCall({ string: (s) => s });
      call.request({ method: 'POST', path: 'chat/completions', body: { model: 'bench-model', stream: true, messages: [] }, stream: true });
      call.attempt({ method: 'POST', url: 'http://127.0.0.1:1/v1/chat/completions', baseURL: 'http://127.0.0.1:1/v1', attempt: 1, idempotencyKey: 'k' })?.end(200);
      call.end({ data: {} });
      const frames = Array.from({ length: FRAMES }, (_, i) => JSON.parse(texts[i % 1000]));
      const c0 = process.cpuUsage();
      for (const f of frames) call.chunk(f);
      const used = process.cpuUsage(c0);
      call.streamEnd({});
      if (round >= 2) results.push((used.user + used.system) / FRAMES);
    }
    results.sort((a, b) => a - b);
    process.stdout.write(`the observer alone, ${mode}: ${results[5].toFixed(3)} µs per frame (median of 10 streams)\n`);
  }
  process.exit(0);
}

if (process.argv[2] === 'client') {
  const [, , , mode, port, streams = String(STREAMS)] = process.argv;
  const { Gateway } = await import('unified-gateway');
  let telemetry;
  if (mode !== 'bare') {
    const { openTelemetry } = await import('unified-gateway/otel');
    const sdk = await appSDK();
    if (mode !== 'off') telemetry = openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: mode === 'metrics' ? sdk.meterProvider() : undefined });
  }
  const client = new Gateway({ apiKey: 'bench-key', baseURL: `http://127.0.0.1:${port}/sse/v1`, idleTimeout: 5_000, telemetry });
  const cpu = () => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  const perFrame = [];
  for (let i = 0; i <= Number(streams); i++) {
    let frames = 0;
    const c0 = cpu();
    for await (const chunk of await client.chat.completions.create({ model: 'bench-model', messages: [{ role: 'user', content: 'benchmark' }], stream: true })) {
      if (chunk.choices[0]?.delta.content) frames++;
    }
    if (frames !== FRAMES) throw new Error(`read ${frames} frames, expected ${FRAMES}`);
    if (i > 0) perFrame.push((cpu() - c0) / FRAMES); // the first stream warms up
  }
  process.stdout.write(`${JSON.stringify({ mode, usPerFrame: perFrame })}\n`);
  process.exit(0);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
/** BENCH_MODES=off,traces measures some only (off is the reference of the ratios). */
const MODES = (process.env.BENCH_MODES ?? 'bare,off,traces,metrics').split(',');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const INSTRUCTIONS = process.env.BENCH_COUNT === 'instructions';
// The server's backstop (minutes): valgrind runs are slow.
const server = spawn(process.execPath, [join(root, 'scripts/bench/server.mjs'), INSTRUCTIONS ? '180' : '15'], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise((resolve) => server.stdout.once('data', (d) => resolve(String(d).trim())));
const self = fileURLToPath(import.meta.url);

/** µs of client CPU per frame: the median of one process's measured streams. */
const cpuPerFrame = (mode) => median(JSON.parse(execFileSync(process.execPath, [self, 'client', mode, port], { cwd: root, encoding: 'utf8', timeout: 120_000 }).trim().split('\n').pop()).usPerFrame);

/**
 * Instructions per frame: a process reading 3 streams less one reading 1 (start-up, imports
 * and warm-up cancel out), over the 2 streams' frames. V8 single-threaded with a fixed GC
 * schedule, as bench:instructions runs it.
 */
function instructionsPerFrame(mode) {
  const count = (streams) => {
    const args = ['--tool=callgrind', '--callgrind-out-file=/dev/null', '--smc-check=all-non-file', process.execPath, '--single-threaded', '--predictable-gc-schedule', self, 'client', mode, port, String(streams)];
    const run = spawnSync('valgrind', args, { cwd: root, encoding: 'utf8', timeout: 1_800_000 });
    const collected = run.stderr?.match(/Collected : (\d+)/);
    if (run.status !== 0 || !collected) throw new Error(`${mode} under valgrind failed: ${run.stderr?.slice(-1500)}`);
    return Number(collected[1]);
  };
  return (count(3) - count(1)) / (2 * FRAMES);
}

const rounds = [];
const unit = INSTRUCTIONS ? 'instructions' : 'µs';
const show = (n) => `${n.toFixed(INSTRUCTIONS ? 0 : 2)} ${unit}`;
try {
  for (let r = 0; r < (INSTRUCTIONS ? 1 : ROUNDS); r++) {
    // Paired within a round, so the machine's drift between rounds cancels.
    const round = Object.fromEntries(MODES.map((mode) => [mode, INSTRUCTIONS ? instructionsPerFrame(mode) : cpuPerFrame(mode)]));
    rounds.push(round);
    process.stdout.write(`round ${r + 1}: ${MODES.map((m) => `${m} ${show(round[m])}`).join(', ')} per frame\n`);
  }
} finally {
  server.kill();
}
const mid = (mode) => median(rounds.map((r) => r[mode]));
const ratio = (mode) => median(rounds.map((r) => r[mode] / r.off)).toFixed(2);
const LABELS = { bare: 'no OpenTelemetry', off: 'the SDK set up, telemetry off', traces: 'traces', metrics: 'traces and metrics' };
const parts = MODES.map((m) => `${LABELS[m]} ${show(mid(m))}${m === 'traces' || m === 'metrics' ? ` (${ratio(m)}× off${m === 'traces' ? ', goal <= 1.2×' : ''})` : ''}`);
process.stdout.write(`client ${INSTRUCTIONS ? 'instructions' : 'CPU'} per stream frame${INSTRUCTIONS ? '' : `, median of ${ROUNDS} rounds`}: ${parts.join('; ')}\n`);
