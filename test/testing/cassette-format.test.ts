import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/internal/redact.js';
import { describeDifferences, matchKey, relativePath, type CassetteRequest } from '../../src/testing/canonical.js';
import { bodyKind, splitFrames, storedBody } from '../../src/testing/cassette.js';

// The pure pieces of a cassette: how a stream is cut into frames, how a body is kept, what a
// request matches on and how a miss is described.

const post = (body: unknown, path = 'chat/completions'): CassetteRequest => ({ method: 'POST', path, body });

describe('splitFrames', () => {
  it.each([
    ['LF events', 'data: 1\n\ndata: 2\n\n', ['data: 1\n\n', 'data: 2\n\n']],
    ['CRLF events', 'data: 1\r\n\r\ndata: 2\r\n\r\n', ['data: 1\r\n\r\n', 'data: 2\r\n\r\n']],
    ['CR events', 'data: 1\r\rdata: 2\r\r', ['data: 1\r\r', 'data: 2\r\r']],
    ['comments and named events', ': PING\n\nevent: response.completed\ndata: {}\n\n', [': PING\n\n', 'event: response.completed\ndata: {}\n\n']],
    ['a last event without its blank line', 'data: 1\n\ndata: 2', ['data: 1\n\n', 'data: 2']],
  ])('%s: frames that join back to the body', (_, text, frames) => {
    expect(splitFrames(text, 'frames')).toEqual(frames);
    expect(splitFrames(text, 'frames').join('')).toBe(text);
  });

  it('cuts JSON lines after each line', () => {
    expect(splitFrames('{"a":1}\n{"b":2}\n', 'lines')).toEqual(['{"a":1}\n', '{"b":2}\n']);
  });
});

describe('storedBody and bodyKind', () => {
  const none = new Redactor();
  const bytes = (text: string) => new TextEncoder().encode(text);
  it.each([
    ['compact JSON', 'application/json', '{"a":1,"b":[true]}', { body: { a: 1, b: [true] } }],
    ['JSON that stringify would not give back', 'application/json', '{ "a": 1 }\n', { text: '{ "a": 1 }\n' }],
    ['text', 'text/vtt', 'WEBVTT\n', { text: 'WEBVTT\n' }],
    ['an empty body', 'application/json', '', {}],
  ])('%s', (_, type, text, kept) => {
    expect(storedBody(bytes(text), type, none)).toEqual(kept);
  });

  it('keeps other bodies, and text that is not UTF-8, as base64', () => {
    expect(storedBody(new Uint8Array([0, 255, 1]), 'image/png', none)).toEqual({ base64: 'AP8B' });
    expect(storedBody(new Uint8Array([0xc3, 0x28]), 'text/plain', none)).toEqual({ base64: 'wyg=' });
  });

  it('removes the key before deciding', () => {
    const redactor = new Redactor();
    redactor.add('sk-abcdef');
    expect(storedBody(bytes('{"echo":"sk-abcdef"}'), 'application/json', redactor)).toEqual({ body: { echo: '[REDACTED]' } });
  });

  it.each([
    ['text/event-stream; charset=utf-8', 'frames'],
    ['application/x-ndjson', 'lines'],
    ['application/json', 'text'],
    ['application/x-subrip', 'text'],
    ['video/mp4', 'binary'],
  ])('%s is kept as %s', (type, kind) => {
    expect(bodyKind(type)).toBe(kind);
  });
});

describe('matchKey', () => {
  it('does not depend on property order, and leaves ignored fields out', () => {
    expect(matchKey(post({ model: 'm', n: { a: 1, b: 2 } }), [])).toBe(matchKey(post({ n: { b: 2, a: 1 }, model: 'm' }), []));
    expect(matchKey(post({ model: 'm', user: 'a' }), [])).not.toBe(matchKey(post({ model: 'm', user: 'b' }), []));
    expect(matchKey(post({ model: 'm', user: 'a' }), ['user'])).toBe(matchKey(post({ model: 'm', user: 'b' }), ['user']));
    const named = (name: string) => post({ messages: [{ role: 'user', content: 'x', name }] });
    expect(matchKey(named('a'), ['messages.*.name'])).toBe(matchKey(named('b'), ['messages.*.name']));
    expect(matchKey(post({ a: 1 }, 'embeddings'), [])).not.toBe(matchKey(post({ a: 1 }), []));
  });
});

describe('relativePath', () => {
  it.each([
    ['http://127.0.0.1:5000/v1/chat/completions', undefined, 'chat/completions'],
    ['https://gw.example/api/v1/models?after=x', undefined, 'models?after=x'],
    ['http://127.0.0.1:5000/mock-files/a.png', undefined, '/mock-files/a.png'],
    ['https://gw.example/openai/chat/completions', 'https://other.example/openai/', 'chat/completions'],
    ['https://cdn.example/v.mp4', 'https://gw.example/openai', '/v.mp4'],
  ])('%s (base %s) is %s', (url, base, path) => {
    expect(relativePath(url, base)).toBe(path);
  });
});

describe('describeDifferences', () => {
  it('names each differing field by its path, absent ones and array items included', () => {
    const recorded = post({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    const sent = post({ model: 'n', messages: [{ role: 'user', content: 'hi' }, { role: 'user', content: 'again' }] });
    expect(describeDifferences(sent, recorded, [])).toEqual(['messages[1]: recorded (absent), sent {"content":"again","role":"user"}', 'model: recorded "m", sent "n"']);
  });

  it('shows at most six fields and counts the rest, and cuts long values', () => {
    const many = (v: number) => post(Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`f${i}`, v])));
    const lines = describeDifferences(many(2), many(1), []);
    expect(lines).toHaveLength(7);
    expect(lines.at(-1)).toBe('… and 3 more');
    const [line] = describeDifferences(post({ p: 'x'.repeat(100) }), post({ p: 'y' }), []);
    expect(line).toBe(`p: recorded "y", sent "${'x'.repeat(40)}…"`);
  });

  it('names a different method or path first', () => {
    expect(describeDifferences({ method: 'GET', path: 'models/a' }, { method: 'GET', path: 'models' }, [])).toEqual(['path: recorded "models", sent "models/a"']);
  });
});
