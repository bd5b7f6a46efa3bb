import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { APIError, Gateway } from '../../src/index.js';
import { httpServer, type LoopbackServer } from '../helpers/sockets.js';

// Redirects over real sockets on 127.0.0.1, so the platform fetch's own redirect handling is
// what is under test. Each server records what reached it; a different port is a different origin.
const KEY = 'sk-redirect-test-0123456789';
const open: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

interface Seen {
  method: string;
  path: string;
  authorization: string | undefined;
  body: string;
}

async function server(handle: (req: IncomingMessage, res: ServerResponse, seen: Seen[]) => void) {
  const seen: Seen[] = [];
  const s = await httpServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, body });
      handle(req, res, seen);
    });
  });
  open.push(s);
  return { ...s, seen };
}

const json = (res: ServerResponse, payload: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(payload));
};
const redirect = (res: ServerResponse, status: number, location: string) => {
  res.writeHead(status, { location });
  res.end();
};
const list = { object: 'list', data: [] };
const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi' }] };
const completion = { id: 'c1', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [] };

describe('redirects are never followed blindly', () => {
  it('re-sends a same-origin redirect with the key, keeping a POST and its body', async () => {
    const s = await server((req, res) => {
      if (req.url === '/v1/chat/completions') redirect(res, 307, '/api/v1/chat/completions');
      else json(res, completion);
    });
    const res = await new Gateway({ apiKey: KEY, baseURL: s.url }).chat.completions.create(chat);
    expect(res.id).toBe('c1');
    expect(s.seen.map((r) => [r.method, r.path, r.authorization])).toEqual([
      ['POST', '/v1/chat/completions', `Bearer ${KEY}`],
      ['POST', '/api/v1/chat/completions', `Bearer ${KEY}`],
    ]);
    expect(JSON.parse(s.seen[1]?.body ?? '{}')).toEqual(chat);
  });

  it('refuses a redirect to another origin, naming it, and never sends the key there', async () => {
    const other = await server((_req, res) => json(res, list));
    const s = await server((_req, res) => redirect(res, 302, `${other.url}/models`));
    const err = await new Gateway({ apiKey: KEY, baseURL: s.url, maxRetries: 0 }).models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect(err).toMatchObject({ status: 302 });
    expect((err as Error).message).toContain(`Redirected to ${other.url}/models`);
    expect((err as Error).message).toMatch(/only sent to the configured base URLs/);
    expect(other.seen).toHaveLength(0);
    expect(String(err)).not.toContain(KEY);
  });

  it('treats a redirect to the other configured base as a failover', async () => {
    const backup = await server((_req, res) => json(res, list));
    const main = await server((req, res) => redirect(res, 307, `${backup.url}${(req.url ?? '').replace(/^\/v1/, '')}`));
    const events: string[] = [];
    const client = new Gateway({ apiKey: KEY, baseURL: main.url, backupBaseURL: backup.url, maxRetries: 0, hooks: { onFailover: (e) => events.push(`${e.from} -> ${e.to}`) } });
    await expect(client.models.list()).resolves.toEqual(list);
    expect(backup.seen.map((r) => [r.path, r.authorization])).toEqual([['/v1/models', `Bearer ${KEY}`]]);
    expect(events).toEqual([`${main.url} -> ${backup.url}`]);
    // Within the cooldown the next call starts on the backup.
    await client.models.list();
    expect(main.seen).toHaveLength(1);
  });

  it('stops a redirect loop', async () => {
    const s = await server((req, res) => redirect(res, 308, req.url === '/v1/models' ? '/v1/models/' : '/v1/models'));
    const err = await new Gateway({ apiKey: KEY, baseURL: s.url, maxRetries: 0 }).models.list().catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/Too many redirects/);
    expect(s.seen.length).toBeLessThanOrEqual(6);
  });

  it('follows a 303 with a GET', async () => {
    const s = await server((req, res) => {
      if (req.method === 'POST') redirect(res, 303, '/v1/result/1');
      else json(res, completion);
    });
    await new Gateway({ apiKey: KEY, baseURL: s.url }).chat.completions.create(chat);
    expect(s.seen.map((r) => `${r.method} ${r.path} ${r.body.length}`)).toEqual(['POST /v1/chat/completions ' + JSON.stringify(chat).length, 'GET /v1/result/1 0']);
  });
});
