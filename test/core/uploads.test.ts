import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// A stream that emits 'error' with no listener kills the whole Node process, beyond any
// try/catch, so this runs in a child process, as a user's program would.
const root = join(import.meta.dirname, '..', '..');
const script = `
import { createReadStream } from 'node:fs';
import { Gateway, toFile } from './src/index.ts';
import { createMockGateway } from './src/testing/index.ts';
const mock = createMockGateway();
const client = new Gateway({ apiKey: 'test-key', baseURL: 'http://mock.local/v1', fetch: mock.fetch });
const calls = {
  'images.edit': () => client.images.edit({ model: 'dall-e-2', image: createReadStream('/no/such/dir/cat.png'), prompt: 'x' }),
  'images.edit mask': () => client.images.edit({ model: 'dall-e-2', image: new Uint8Array([1]), mask: createReadStream('/no/such/dir/mask.png'), prompt: 'x' }),
  'audio.transcriptions.create': () => client.audio.transcriptions.create({ model: 'whisper-1', file: createReadStream('/no/such/dir/talk.mp3') }),
  toFile: () => toFile(createReadStream('/no/such/dir/data.bin')),
};
const out = {};
for (const [name, call] of Object.entries(calls)) {
  out[name] = await call().then(() => 'resolved', (e) => e.name + ' | ' + e.field + ' | ' + e.message);
}
out.requests = mock.requests.length;
console.log(JSON.stringify(out));
`;

describe('file inputs', () => {
  it('rejects an fs.ReadStream of a missing file with a catchable error naming it, and sends nothing', () => {
    const stdout = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    const out = JSON.parse(stdout) as Record<string, string | number>;
    expect(out['images.edit']).toMatch(/^ValidationError \| image \| .*could not read the file \/no\/such\/dir\/cat\.png: ENOENT/);
    expect(out['images.edit mask']).toMatch(/^ValidationError \| mask \| .*\/no\/such\/dir\/mask\.png/);
    expect(out['audio.transcriptions.create']).toMatch(/^ValidationError \| file \| .*\/no\/such\/dir\/talk\.mp3/);
    expect(out.toFile).toMatch(/^ValidationError \| file \| .*\/no\/such\/dir\/data\.bin/);
    expect(out.requests).toBe(0);
  });
});
