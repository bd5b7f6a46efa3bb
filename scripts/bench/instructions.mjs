// npm run bench:instructions: the throughput targets measured in CPU instructions instead of
// wall time. Wall time on a shared 2-core machine drifts by a third over minutes; the number
// of instructions a client process executes for the same work does not. Runs each client
// under valgrind (callgrind, counting only) for 1 and for 4 measured runs: a third of the
// difference is the cost of one run's work, start-up, imports and JIT warm-up cancelling out
// (three runs, so that where a major GC falls does not decide the figure).
// Writes docs/benchmarks-instructions.md. Needs valgrind (apt-get install valgrind); takes
// about half an hour. Runs on this Node and on Node 24 when `npm run test:runtimes` fetched
// it (BENCH_NODES=22,24,26 for others).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  console.log('valgrind is not installed: skipping the instruction counts (apt-get install valgrind).');
  process.exit(0);
}

// This Node, and the other majors the runtime matrix installed under .tmp/runtimes.
const runtimes = [{ name: `Node ${process.version}`, bin: process.execPath }];
const fetched = join(root, '.tmp/runtimes/bin');
if (existsSync(fetched)) {
  for (const dir of readdirSync(fetched).filter((d) => /^node\d+@/.test(d)).sort()) {
    const [pkg, version] = dir.split('@');
    const bin = join(fetched, dir, 'node_modules', pkg, 'bin', 'node');
    const major = version.split('.')[0];
    const wanted = (process.env.BENCH_NODES ?? '24').split(',');
    if (existsSync(bin) && wanted.includes(major) && !process.version.startsWith(`v${major}.`)) runtimes.push({ name: `Node v${version}`, bin });
  }
}

const SCENARIOS = [
  ['sse', 'one 20,000-frame stream', 0.9],
  ['json-seq', '300 sequential requests', 0.91],
  ['json-par', '960 requests, 16 concurrent', 0.91],
];
const server = spawn(process.execPath, [join(root, 'scripts/bench/server.mjs'), '60'], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise((resolve) => server.stdout.once('data', (d) => resolve(String(d).trim())));

/** Instructions a client process executes for `runs` measured runs (plus its start-up and warm-up). */
function instructions(bin, who, scenario, runs) {
  const args = ['--tool=callgrind', '--callgrind-out-file=/dev/null', '--smc-check=all-non-file', bin, join(root, 'scripts/bench/client.mjs'), who, scenario, port, String(runs)];
  const r = spawnSync('valgrind', args, { cwd: root, encoding: 'utf8', timeout: 900_000, maxBuffer: 64 * 2 ** 20 });
  const collected = r.stderr.match(/Collected : (\d+)/);
  if (r.status !== 0 || !collected) throw new Error(`${who} ${scenario} under valgrind failed (status ${r.status}):\n${r.stdout}\n${r.stderr.slice(-2000)}`);
  return Number(collected[1]);
}

const rows = [];
try {
  for (const runtime of runtimes) {
    for (const [scenario, unit, target] of SCENARIOS) {
      const per = {};
      for (const who of ['floor', 'ours']) per[who] = (instructions(runtime.bin, who, scenario, 4) - instructions(runtime.bin, who, scenario, 1)) / 3;
      rows.push({ runtime: runtime.name, scenario, unit, target, floor: per.floor, ours: per.ours, ratio: per.floor / per.ours });
      console.log(`${runtime.name} ${scenario}: floor ${per.floor}, ours ${per.ours}, ${(per.floor / per.ours).toFixed(3)}×`);
    }
  }
} finally {
  server.kill();
}

const M = (n) => `${(n / 1e6).toFixed(0)} M`;
const md = `# Benchmarks: CPU instructions

Measured by \`npm run bench:instructions\` on ${new Date().toISOString().slice(0, 10)}. The throughput targets of
[benchmarks.md](benchmarks.md), counted in CPU instructions instead of wall time: each client
runs under valgrind (callgrind) once with one measured run and once with four, and a third
of the difference is what one run's work costs that client's process, start-up, imports and
JIT warm-up cancelling out. Counts do not drift with the machine's load the way wall time does
(repeated counts of the same process agree within about 0.5 %); they leave out the server's side, which is the same
for both clients, and the time spent waiting on the network. **floor** is plain \`fetch\` and
the smallest correct SSE parser; **ours** is unified-gateway with its defaults.

| runtime | work | floor | ours | throughput vs floor | target |
|---|---|---|---|---|---|
${rows.map((r) => `| ${r.runtime} | ${r.unit} | ${M(r.floor)} | ${M(r.ours)} | ${r.ratio.toFixed(2)}× | ≥ ${r.target}× ${r.ratio >= r.target ? 'met' : '**not met**'} |`).join('\n')}

What ours adds on every request: validating the body, an Idempotency-Key, and a per-attempt
timeout, which is an \`AbortController\` and a timer per attempt (a request that cannot time
out holds a socket forever on a hung server). On Node 20 creating an \`AbortSignal\` is
expensive (it is made transferable on creation), so the concurrent case, where that cost is
the largest share, falls short there; Node 22 and later create signals far more cheaply.
`;
writeFileSync(join(root, 'docs/benchmarks-instructions.md'), md);
console.log(md);
