import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpServer, type LoopbackServer } from '../helpers/sockets.js';
import { runCli } from './run-cli.js';

// A gateway that answers image generation with a URL only (some do, whatever
// response_format says), and a second origin standing in for a CDN.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
const KEY = 'sk-cli-url-test-4567';
let imageURL = '';
let redirectTo = '';
let flakyFailed = false;
const seen: Array<{ server: 'gateway' | 'cdn'; path: string; authorization: string | undefined }> = [];

function files(server: 'gateway' | 'cdn') {
  return (req: IncomingMessage, res: ServerResponse) => {
    seen.push({ server, path: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    if (req.method === 'POST' && req.url === '/v1/images/generations') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ created: 0, data: [{ url: imageURL }] }));
    } else if (req.url === '/files/flaky.png' && !flakyFailed) {
      flakyFailed = true;
      res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'busy' } }));
    } else if (req.url === '/files/moved.png') {
      res.writeHead(302, { location: redirectTo }).end();
    } else if (req.url?.startsWith('/files/')) {
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    } else {
      res.writeHead(404).end();
    }
  };
}

let gateway: LoopbackServer;
let cdn: LoopbackServer;
let dir: string;
const origin = (s: LoopbackServer) => s.url.replace(/\/v1$/, '');

beforeAll(async () => {
  gateway = await httpServer(files('gateway'));
  cdn = await httpServer(files('cdn'));
  dir = mkdtempSync(join(tmpdir(), 'ug-cli-image-'));
});
afterAll(async () => {
  await Promise.all([gateway.close(), cdn.close()]);
  rmSync(dir, { recursive: true, force: true });
});

let runs = 0;
async function generate(url: string, args: string[] = []) {
  imageURL = url;
  seen.length = 0;
  const out = join(dir, `image-${++runs}.png`);
  const run = await runCli(['image', 'a cat', '--out', out, ...args], { env: { GATEWAY_API_KEY: KEY, GATEWAY_BASE_URL: gateway.url } });
  return { run, out };
}

describe('image, when the gateway answers with a URL only', { timeout: 20_000 }, () => {
  it('fetches the file from the gateway itself with the key', async () => {
    const { run, out } = await generate(`${origin(gateway)}/files/cat.png`);
    expect(run).toMatchObject({ code: 0, stdout: `${out}\n` });
    expect(readFileSync(out)).toEqual(PNG);
    expect(seen.find((r) => r.path === '/files/cat.png')).toEqual({ server: 'gateway', path: '/files/cat.png', authorization: `Bearer ${KEY}` });
  });

  it('fetches it from another origin without the key', async () => {
    const { run, out } = await generate(`${origin(cdn)}/files/cat.png`);
    expect(run.code).toBe(0);
    expect(readFileSync(out)).toEqual(PNG);
    expect(seen.find((r) => r.server === 'cdn')).toEqual({ server: 'cdn', path: '/files/cat.png', authorization: undefined });
  });

  it('drops the key when the gateway redirects to another origin', async () => {
    redirectTo = `${origin(cdn)}/files/cat.png`;
    const { run } = await generate(`${origin(gateway)}/files/moved.png`);
    expect(run.code).toBe(0);
    expect(seen.filter((r) => r.path.startsWith('/files/'))).toEqual([
      { server: 'gateway', path: '/files/moved.png', authorization: `Bearer ${KEY}` },
      { server: 'cdn', path: '/files/cat.png', authorization: undefined },
    ]);
  });

  it('resolves a relative URL against the base URL and sends the key there', async () => {
    const { run, out } = await generate('/files/cat.png');
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(out)).toEqual(PNG);
    expect(seen.find((r) => r.path === '/files/cat.png')).toEqual({ server: 'gateway', path: '/files/cat.png', authorization: `Bearer ${KEY}` });
  });

  it('retries a download the server could not serve for a moment (the SDK download path)', async () => {
    flakyFailed = false;
    const { run, out } = await generate(`${origin(cdn)}/files/flaky.png`, ['--max-retries', '1']);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(out)).toEqual(PNG);
    expect(seen.filter((r) => r.path === '/files/flaky.png')).toHaveLength(2);
  });

  it('exits 1 with the SDK error naming the URL when the file is missing, and writes nothing', async () => {
    const { run, out } = await generate(`${origin(cdn)}/missing.png`, ['--max-retries', '0']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^NotFoundError: 404 .*GET ${origin(cdn)}/missing\\.png`));
    expect(run.stdout + run.stderr).not.toContain(KEY);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.part`)).toBe(false);
  });
});
