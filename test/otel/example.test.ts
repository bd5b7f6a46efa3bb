import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const example = join(root, 'examples', 'otel-traces.ts');

/** An OTLP/HTTP receiver on 127.0.0.1 that keeps every JSON body it is sent, by path. */
async function receiver() {
  const got: { path: string; body: unknown }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      got.push({ path: req.url ?? '', body: JSON.parse(body) as unknown });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { got, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function run(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const { OTEL_EXPORTER_OTLP_ENDPOINT: _, ...inherited } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', example], { cwd: root, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

// The example imports the package by its name, so it runs on the build (`npm test` builds first).
describe('examples/otel-traces.ts', () => {
  it('exports its spans and metrics over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT', { timeout: 40_000 }, async () => {
    const otlp = await receiver();
    try {
      const { code, output } = await run({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url });
      expect(code, output).toBe(0);
      expect(output).toContain(`exporting to ${otlp.url}`);
      const text = JSON.stringify(otlp.got);
      expect(otlp.got.map((g) => g.path).sort()).toEqual(expect.arrayContaining(['/v1/traces', '/v1/metrics']));
      for (const name of ['chat gpt-4o', 'chat gpt-4o-mini', 'POST /v1/chat/completions', 'gen_ai.client.operation.duration', 'gen_ai.client.token.usage', 'gen_ai.client.operation.time_to_first_chunk']) expect(text).toContain(`"${name}"`);
      expect(text).not.toContain('demo-key');
    } finally {
      await otlp.close();
    }
  });

  it('without the variable, exports to a receiver of its own on 127.0.0.1 and prints the trace', { timeout: 40_000 }, async () => {
    const { code, output } = await run({});
    expect(code, output).toBe(0);
    expect(output).toMatch(/exporting to http:\/\/127\.0\.0\.1:\d+/);
    expect(output).toMatch(/^chat gpt-4o .*gen_ai\.response\.model=gpt-4o-mini/m);
    expect(output).toMatch(/^ {2}POST \/v1\/chat\/completions .*http\.request\.resend_count=2 http\.response\.status_code=200/m);
  });
});
