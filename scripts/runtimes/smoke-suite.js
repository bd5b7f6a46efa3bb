// The runtime smoke suite, written once. It has no import or export on purpose: run.mjs
// pastes it after a line that binds `sdk` (ESM `import * as sdk`, CJS `require`, or the
// workerd worker), so the same checks run on Node (ESM and CJS), Deno, Bun and workerd.
//
// runSmoke(sdk, { url, slowUrl, apiKey, wrongKey, label, onCheck, testing, worker }) resolves to
//   { checks: [{ name, ok, ms, detail }], passed, failed }
// and never rejects. Every await is bounded by a timer, and every timer is cleared, so a
// runtime that finishes the suite has nothing left to wait for and must exit by itself.
// `slowUrl` reaches a second mock that delays every SSE frame (through the runner's proxy),
// for the break-out check. `testing` is unified-gateway/testing as the runtime loads it (the
// worker's is the default build, without node:fs); `worker` is true in workerd.

/* eslint-disable */
async function runSmoke(sdk, { url, slowUrl, apiKey, wrongKey, label = 'smoke', onCheck = () => {}, testing, worker = false }) {
  const CHECK_TIMEOUT_MS = 10_000;
  const checks = [];

  const withTimeout = (promise, ms, what) => {
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  };
  const check = async (name, fn, ms = CHECK_TIMEOUT_MS) => {
    const started = Date.now();
    let ok = false;
    let detail = '';
    try {
      detail = (await withTimeout(Promise.resolve().then(fn), ms, name)) ?? '';
      ok = true;
    } catch (error) {
      detail = describe(error);
    }
    const result = { name, ok, ms: Date.now() - started, detail: String(detail) };
    checks.push(result);
    onCheck(result);
  };
  const describe = (error) => {
    if (error instanceof Error) return `${error.name}: ${error.message}${error.cause ? ` (cause: ${describe(error.cause)})` : ''}`;
    return String(error);
  };
  const assert = (condition, message) => {
    if (!condition) throw new Error(message);
  };
  const same = (actual, expected, what) => assert(actual === expected, `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  const expectRejection = async (promise) => {
    try {
      const value = await promise;
      throw new Error(`expected a rejection, got ${JSON.stringify(value)?.slice(0, 200)}`);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('expected a rejection')) throw error;
      return error;
    }
  };

  const { Gateway, AuthenticationError, ValidationError } = sdk;
  const model = 'gpt-4o-mini';
  let client;

  await check('exports', () => {
    for (const [name, value] of Object.entries({ Gateway, AuthenticationError, ValidationError })) {
      assert(typeof value === 'function', `${name} is ${typeof value}, not a class`);
    }
    client = new Gateway({ apiKey, baseURL: url });
  });

  await check('models.list', async () => {
    const list = await client.models.list();
    assert(Array.isArray(list.data) && list.data.length > 0, `no models: ${JSON.stringify(list).slice(0, 200)}`);
    return `${list.data.length} models`;
  });

  await check('chat', async () => {
    const message = `hello from ${label}`;
    const completion = await client.chat.completions.create({ model, messages: [{ role: 'user', content: message }] });
    same(completion.choices[0]?.message.content, `You said: ${message}`, 'content');
  });

  await check('stream utf-8', async () => {
    const message = 'héllo wörld 你好 🌍🚀 ñandú Ωμέγα 𝄞 end';
    const stream = await client.chat.completions.create({ model, messages: [{ role: 'user', content: message }], stream: true });
    let text = '';
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices[0]?.delta.content ?? '';
    }
    same(text, `You said: ${message}`, 'reassembled deltas');
    assert(chunks > 3, `only ${chunks} chunks`);
    return `${chunks} chunks`;
  });

  await check('auth error', async () => {
    const wrong = new Gateway({ apiKey: wrongKey, baseURL: url });
    const error = await expectRejection(wrong.models.list());
    assert(error instanceof AuthenticationError, `not an AuthenticationError: ${describe(error)}`);
    same(error.status, 401, 'status');
    let json;
    try {
      json = JSON.stringify(error);
    } catch (e) {
      throw new Error(`JSON.stringify(err) threw: ${describe(e)}`);
    }
    for (const [where, text] of [
      ['String(err)', String(error)],
      ['err.message', error.message],
      ['err.stack', String(error.stack)],
      ['JSON.stringify(err)', String(json)],
    ]) {
      assert(!text.includes(wrongKey), `the wrong key appears in ${where}`);
    }
  });

  await check('break stream', async () => {
    // 400 words at one frame per 50 ms: the whole stream would take ~20 s. `slowUrl` goes
    // through the runner's loopback proxy, which reports at `${slowUrl}/__state` whether the
    // client closed the stream (leaving the loop must cancel the request, in every runtime).
    const slow = new Gateway({ apiKey, baseURL: slowUrl });
    const started = Date.now();
    const stream = await slow.chat.completions.create({ model, messages: [{ role: 'user', content: 'w '.repeat(400).trim() }], stream: true });
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      break;
    }
    const ms = Date.now() - started;
    same(chunks, 1, 'chunks read');
    assert(ms < 5_000, `leaving the loop took ${ms} ms`);
    let state;
    for (let i = 0; i < 60; i++) {
      state = await (await globalThis.fetch(`${slowUrl}/__state`)).json();
      if (state.state !== 'open') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    same(state.state, 'closed-by-client', 'stream state seen by the server');
    return `left after 1 chunk; server saw the stream closed ${Math.max(0, state.closedAt - state.firstByteAt)} ms after its first frame`;
  }, 9_000);

  await check('validation', async () => {
    let sent = 0;
    const counting = new Gateway({
      apiKey,
      baseURL: url,
      fetch: (...args) => {
        sent++;
        return globalThis.fetch(...args);
      },
    });
    const error = await expectRejection(
      counting.chat.completions.create({ model, messages: [{ role: 'user', content: `validation ${label}` }], temperature: 5 }),
    );
    assert(error instanceof ValidationError, `not a ValidationError: ${describe(error)}`);
    same(error.field, 'temperature', 'err.field');
    same(sent, 0, 'requests sent');
  });

  // Record against the mock over the runtime's own fetch, then replay the cassettes inline
  // (as a browser or a worker imports them) with a fetch that refuses the network.
  await check('record and replay', async () => {
    const { recorder, CassetteNotFoundError } = testing;
    const rec = recorder({ mode: 'record' });
    const live = new Gateway({ apiKey, baseURL: url, fetch: rec.fetch });
    const ask = { model, messages: [{ role: 'user', content: `replay on ${label}` }] };
    const reply = await live.chat.completions.create(ask);
    const streamBody = JSON.stringify({ model, messages: [{ role: 'user', content: 'héllo 你好 🌍 replay' }], stream: true });
    const post = { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: streamBody };
    const recordedStream = await (await rec.fetch(`${url}/chat/completions`, post)).text();
    same(rec.recorded.length, 2, 'cassettes recorded');
    assert(!JSON.stringify(rec.recorded).includes(apiKey), 'a cassette holds the key');

    let sent = 0;
    const offlineFetch = () => {
      sent++;
      throw new Error('replay reached the network');
    };
    const replay = recorder({ cassettes: JSON.parse(JSON.stringify(rec.recorded)), mode: 'replay', fetch: offlineFetch });
    const offline = new Gateway({ apiKey: 'unused-key', baseURL: 'https://offline.invalid/v1', fetch: replay.fetch, maxRetries: 2 });
    same((await offline.chat.completions.create(ask)).choices[0]?.message.content, reply.choices[0]?.message.content, 'replayed content');
    same(await (await replay.fetch('https://offline.invalid/v1/chat/completions', { ...post, headers: { 'content-type': 'application/json' } })).text(), recordedStream, 'replayed stream bytes');
    const miss = await expectRejection(offline.chat.completions.create({ ...ask, temperature: 0.5 }));
    assert(miss instanceof CassetteNotFoundError, `not a CassetteNotFoundError: ${describe(miss)}`);
    assert(miss.message.includes('temperature: recorded (absent), sent 0.5'), `the miss does not say how it differs: ${miss.message}`);
    same(sent, 0, 'requests sent while replaying');
    return `${recordedStream.length} stream bytes replayed identically`;
  });

  // Cassette files: written and replayed where there is a file system; refused in a worker,
  // whose build carries no node:fs. Deno runs here without read or write permission.
  await check('cassette files', async () => {
    const { recorder } = testing;
    if (worker) {
      let error;
      try {
        recorder({ dir: 'cassettes' });
      } catch (e) {
        error = e;
      }
      assert(error instanceof ValidationError && /pass them inline/.test(error.message), `dir not refused as documented: ${describe(error)}`);
      return 'dir refused, inline cassettes suggested';
    }
    if (globalThis.Deno) return 'skipped: no file permission in this matrix';
    const dir = `cassettes-${label}`;
    const ask = { model, messages: [{ role: 'user', content: `files on ${label}` }] };
    const recorded = await new Gateway({ apiKey, baseURL: url, fetch: recorder({ dir, mode: 'record' }).fetch }).chat.completions.create(ask);
    const replay = recorder({ dir, mode: 'replay', fetch: () => Promise.reject(new Error('replay reached the network')) });
    const again = await new Gateway({ apiKey: 'unused-key', baseURL: 'https://offline.invalid/v1', fetch: replay.fetch }).chat.completions.create(ask);
    same(again.choices[0]?.message.content, recorded.choices[0]?.message.content, 'replayed from the file');
    return `replayed ${replay.entries[0]?.cassette}`;
  });

  const failed = checks.filter((c) => !c.ok).length;
  return { checks, passed: checks.length - failed, failed };
}
