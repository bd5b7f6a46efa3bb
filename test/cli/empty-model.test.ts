import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, useServedMock } from './run-cli.js';

// `-m ''` (a `--model "$MODEL"` whose variable is unset) is a mistake: it must not quietly
// become the default paid model. Served by a mock, so "nothing was sent" is observed.
const served = useServedMock('ug-cli-empty-model-');

describe('an empty --model is refused with exit 2, nothing sent', { timeout: 20_000 }, () => {
  const commands = (dir: string): Array<[string, string[]]> => {
    const audio = join(dir, 'a.wav');
    writeFileSync(audio, 'RIFF');
    return [
      ['chat', ['chat', 'hi']],
      ['image', ['image', 'a cat', '--out', join(dir, 'x.png')]],
      ['video', ['video', 'waves', '--duration', '5', '--out', join(dir, 'v.mp4')]],
      ['transcribe', ['transcribe', audio]],
    ];
  };

  it.each([['-m', ''], ['--model', ''], ['--model', '  '], ['--model=']])('%s %j', async (...flag: string[]) => {
    for (const [name, args] of commands(served.dir)) {
      // GATEWAY_MODEL set: chat too must not fall back to it when --model is given empty.
      const run = await runCli([...args, ...flag], { env: { ...served.env, GATEWAY_MODEL: 'gpt-4o-mini' } });
      expect(run.code, `${name}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toContain('--model');
      expect(run.stderr).toMatch(new RegExp(`Run 'unified-gateway ${name} --help' for usage`));
      expect(served.mock.requests, name).toHaveLength(0);
    }
  });

  it('still uses the default model when --model is not given', async () => {
    const out = join(served.dir, 'default.png');
    const run = await runCli(['image', 'a cat', '--out', out], { env: served.env });
    expect(run.code, run.stderr).toBe(0);
    expect(served.mock.requests[0]?.body).toMatchObject({ model: 'dall-e-3' });
  });
});
