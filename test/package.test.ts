import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Runs in fresh Node processes against the built package (npm test builds first), through
// the package's own exports map, as an installed package would be loaded.
function run(code: string, type: 'module' | 'commonjs'): string {
  const flag = type === 'module' ? '--input-type=module' : '--input-type=commonjs';
  return execFileSync(process.execPath, [flag, '-e', code], { encoding: 'utf8', timeout: 30_000 }).trim();
}

const script = (load: string) => `
${load}
const mock = createMockGateway({ apiKey: 'k' });
const client = new Gateway({ apiKey: 'k', baseURL: 'http://mock.local/v1', fetch: mock.fetch });
(async () => {
  const res = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'pkg' }] });
  const err = await client.models.retrieve('nope').catch((e) => e);
  console.log([res.choices[0].message.content, err instanceof NotFoundError, Gateway.NotFoundError === NotFoundError, typeof Default].join('|'));
})();
`;

describe('built package', () => {
  it('works from ESM through the exports map', () => {
    const out = run(script(`import Default, { Gateway, NotFoundError } from 'unified-gateway'; import { createMockGateway } from 'unified-gateway/testing';`), 'module');
    expect(out).toBe('You said: pkg|true|true|function');
  });

  it('works from CommonJS through the exports map', () => {
    const out = run(script(`const { Gateway, NotFoundError, default: Default } = require('unified-gateway'); const { createMockGateway } = require('unified-gateway/testing');`), 'commonjs');
    expect(out).toBe('You said: pkg|true|true|function');
  });

  it('is the Gateway class itself when required from CommonJS, named exports included', () => {
    const out = run(
      `const Gateway = require('unified-gateway');
       const client = new Gateway({ apiKey: 'k', baseURL: 'https://x.example/v1' });
       console.log([client instanceof Gateway, Gateway.Gateway === Gateway, Gateway.default === Gateway, typeof Gateway.toFile, typeof Gateway.NotFoundError, typeof client.chat.completions.create].join('|'));`,
      'commonjs',
    );
    expect(out).toBe('true|true|true|function|function|function');
  });
});

/** Names a bundled declaration file exports as values (not `type`), `default` included. */
function declaredValues(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.flatMap((s) =>
    ts.isExportDeclaration(s) && !s.isTypeOnly && s.exportClause && ts.isNamedExports(s.exportClause) ? s.exportClause.elements.filter((e) => !e.isTypeOnly).map((e) => e.name.text) : [],
  );
}

describe('npm pack', () => {
  // dist/ is not in git: `prepack` builds it (here already built, so the build only checks),
  // and says so on stderr, where it cannot break a tool that reads `npm pack --json`.
  it('ships dist/, and its --json answer is JSON', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json'], { encoding: 'utf8', timeout: 150_000, stdio: ['ignore', 'pipe', 'pipe'] });
    const [pack] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>;
    const paths = new Set(pack?.files.map((f) => f.path));
    for (const built of ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/ai-sdk.js', 'dist/otel.js', 'dist/testing.js', 'dist/cli.js']) expect(paths).toContain(built);
  }, 160_000);
});

describe('built package: declared values exist at run time', () => {
  const cases = [
    ['dist/index.d.ts', ['dist/index.js', 'dist/node/index.js']],
    ['dist/index.d.cts', ['dist/index.cjs']],
    ['dist/testing.d.ts', ['dist/testing.js', 'dist/node/testing.js']],
    ['dist/testing.d.cts', ['dist/testing.cjs']],
    ['dist/redis.d.ts', ['dist/redis.js']],
    ['dist/redis.d.cts', ['dist/redis.cjs']],
  ] as const;
  it.each(cases)('every value %s exports is in its JS', (declarations, builds) => {
    const names = declaredValues(declarations);
    expect(names).toContain(declarations.includes('testing') ? 'createMockGateway' : declarations.includes('redis') ? 'redisStore' : 'Gateway');
    for (const build of builds) {
      const load = build.endsWith('.cjs') ? `require(${JSON.stringify(`./${build}`)})` : `await import(${JSON.stringify(`./${build}`)})`;
      // A function's name is what stacks and console.log show: it must be the exported name.
      const out = run(
        `const { createRequire } = await import('node:module'); const require = createRequire(process.cwd() + '/'); const m = ${load};
         const names = ${JSON.stringify(names)};
         console.log(JSON.stringify({ missing: names.filter((n) => m[n] === undefined), misnamed: names.filter((n) => n !== 'default' && typeof m[n] === 'function' && m[n].name !== n).map((n) => n + ': ' + m[n].name) }));`,
        'module',
      );
      expect({ build, ...JSON.parse(out) }).toEqual({ build, missing: [], misnamed: [] });
    }
  }, 60_000);
});

describe('built package: class names', () => {
  it.each(['dist/index.js', 'dist/node/index.js', 'dist/index.cjs'])('are the source names in %s, as console.log shows them', (build) => {
    const load = build.endsWith('.cjs') ? `require(${JSON.stringify(`./${build}`)})` : `await import(${JSON.stringify(`./${build}`)})`;
    const out = run(
      `const { createRequire } = await import('node:module'); const require = createRequire(process.cwd() + '/'); const { inspect } = await import('node:util');
       const { Gateway } = ${load};
       const client = new Gateway({ apiKey: 'k', baseURL: 'https://x.example/v1' });
       console.log(JSON.stringify([Gateway.name, client.chat.completions.constructor.name, client.completions.constructor.name, inspect(client, { depth: 1 }).split('\\n').filter((l) => /^\\S|chat|completions:|audio/.test(l))]));`,
      'module',
    );
    expect(JSON.parse(out)).toEqual(['Gateway', 'ChatCompletions', 'Completions', ['Gateway {', '  chat: Chat { completions: ChatCompletions {} },', '  completions: Completions {},', '  audio: Audio { transcriptions: Transcriptions {} },', '}']]);
  });
});

describe('built package: unified-gateway/redis', () => {
  const script = `
    const sent = [];
    const node = { sendCommand: async (args) => (sent.push(args.join(' ')), args[0] === 'MGET' ? ['v', null] : 'OK') };
    const io = { call: async (...args) => (sent.push(args.join(' ')), 'OK') };
    (async () => {
      const a = await redisStore(node).get(['k', 'none']);
      const b = await redisStore(io, { prefix: 'p' }).set('k', 'v', { ttlMs: 10, ifAbsent: true });
      let refusal;
      try { redisStore({}); } catch (error) { refusal = error; }
      console.log(JSON.stringify([a, b, sent, refusal instanceof ValidationError, typeof memoryStore]));
    })();
  `;
  const expected = [['v', null], true, ['MGET ug:k ug:none', 'SET p:k v PX 10 NX'], true, 'function'];

  it('works from ESM and CommonJS through the exports map, refusing with the root entry’s own ValidationError', () => {
    const esm = run(`import { redisStore } from 'unified-gateway/redis'; import { ValidationError, memoryStore } from 'unified-gateway';${script}`, 'module');
    const cjs = run(`const { redisStore } = require('unified-gateway/redis'); const { ValidationError, memoryStore } = require('unified-gateway');${script}`, 'commonjs');
    expect(JSON.parse(esm)).toEqual(expected);
    expect(JSON.parse(cjs)).toEqual(expected);
  });

  it('names neither node-redis nor ioredis in any built file: they are the app’s, never the package’s', () => {
    const files = readdirSync('dist', { recursive: true, encoding: 'utf8' }).filter((f) => /\.(c?js|d\.c?ts)$/.test(f));
    expect(files).toContain('redis.js');
    // Every import, require() and import() of each file (comments and strings are not imports).
    const importing = files.flatMap((f) =>
      ts
        .preProcessFile(readFileSync(`dist/${f}`, 'utf8'), true, true)
        .importedFiles.map((i) => i.fileName)
        .filter((name) => /^(redis|ioredis|@redis\/.*)$/.test(name))
        .map((name) => `${f} -> ${name}`),
    );
    expect(files.length).toBeGreaterThan(20);
    expect(importing).toEqual([]);
  });
});
