import { build } from 'esbuild';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// An edge worker (platform-neutral, no Node) that uses every resource, bundled from the
// built ESM package: the metafile must show no Node built-in anywhere in it.
const root = join(import.meta.dirname, '..');
const worker = `
import { Gateway, toFile } from 'unified-gateway';
export default {
  async fetch(request) {
    const c = new Gateway({ apiKey: 'k', baseURL: 'https://gateway.example/v1' });
    const file = await toFile(new Uint8Array([1]), 'a.png');
    await Promise.all([
      c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true }),
      c.completions.create({ model: 'm', prompt: 'x' }), c.embeddings.create({ model: 'm', input: 'x' }),
      c.images.generate({ model: 'm', prompt: 'x' }), c.images.edit({ model: 'm', prompt: 'x', image: file }),
      c.audio.transcriptions.create({ model: 'm', file }), c.responses.create({ model: 'm', input: 'x', stream: true }),
      c.models.list(), c.videos.generateAndWait({ model: 'v_video2', prompt: 'x', duration: 5 }),
    ]);
    return new Response('ok');
  },
};`;

describe('edge runtime bundle', () => {
  it('pulls in no Node built-in module', async () => {
    const result = await build({
      stdin: { contents: worker, resolveDir: root, loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      conditions: ['worker', 'browser'],
      splitting: false,
      write: false,
      metafile: true,
      alias: { 'unified-gateway': join(root, 'dist', 'index.js') },
      logLevel: 'silent',
    });
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((i) => i.includes('zod') && i.includes('node_modules'))).toBe(true);
    expect(inputs.filter((i) => builtins.has(i) || i.startsWith('node:'))).toEqual([]);
    const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path));
    expect(imports.filter((p) => builtins.has(p) || p.startsWith('node:'))).toEqual([]);
  });

  it('bundles the testing entry for a worker too: only listen() and cassette files need Node, and they say so; inline cassettes replay', async () => {
    const result = await build({
      stdin: {
        contents: `import { createMockGateway, recorder } from 'unified-gateway/testing';
          const mock = createMockGateway();
          export const ok = (await mock.fetch('http://mock.local/v1/models', { headers: { authorization: 'Bearer test-key' } })).status;
          export const listen = await mock.listen().then(() => 'listened', (e) => e.message);
          const rec = recorder({ mode: 'record', fetch: mock.fetch });
          const live = await (await rec.fetch('http://mock.local/v1/models', { headers: { authorization: 'Bearer test-key' } })).json();
          const replay = recorder({ cassettes: rec.recorded, fetch: () => { throw new Error('network'); } });
          export const replayed = JSON.stringify(await (await replay.fetch('https://other.example/v1/models')).json()) === JSON.stringify(live);
          export const dir = (() => { try { recorder({ dir: 'cassettes' }); return 'accepted'; } catch (e) { return e.message; } })();
          export const mockDir = (() => { try { createMockGateway({ cassettes: 'cassettes' }); return 'accepted'; } catch (e) { return e.message; } })();`,
        resolveDir: root,
        loader: 'js',
      },
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      conditions: ['workerd', 'worker', 'browser'],
      write: false,
      metafile: true,
      alias: { 'unified-gateway/testing': join(root, 'dist', 'testing.js') },
      logLevel: 'silent',
    });
    const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path));
    expect(imports.filter((p) => p.startsWith('node:') || builtinModules.includes(p))).toEqual([]);
    const code = result.outputFiles[0]?.text ?? '';
    const mod = (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as { ok: number; listen: string; replayed: boolean; dir: string; mockDir: string };
    expect(mod.ok).toBe(200);
    expect(mod.listen).toMatch(/needs Node's node:http.*mock\.fetch/);
    expect(mod.replayed).toBe(true);
    expect(mod.dir).toMatch(/^Invalid dir: needs a file system.*recorder\(\{ cassettes, mode: 'replay' \}\)/);
    expect(mod.mockDir).toMatch(/^Invalid cassettes: as a directory needs a file system.*inline/);
  });
});
