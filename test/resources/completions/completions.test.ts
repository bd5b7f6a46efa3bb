import { describe, expect, it } from 'vitest';
import { APIConnectionError, InternalServerError, ValidationError, type CompletionCreateParams } from '../../../src/index.js';
import { mockClient } from '../../helpers/mock-client.js';

const params = { model: 'gpt-3.5-turbo-instruct', prompt: 'Say this is a test' };

describe('completions.create', () => {
  it('returns a text completion', async () => {
    const { client } = mockClient();
    const res = await client.completions.create(params);
    expect(res).toMatchObject({ object: 'text_completion', choices: [{ index: 0, text: ' This is a mock completion of: Say this is a test', finish_reason: 'stop' }] });
    expect(res.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('streams Completion frames until [DONE]', async () => {
    const { client } = mockClient();
    const stream = await client.completions.create({ ...params, stream: true });
    let text = '';
    for await (const frame of stream) text += frame.choices[0]?.text ?? '';
    expect(text).toBe(' This is a mock completion of: Say this is a test');
  });

  it('throws when the stream ends without [DONE]', async () => {
    const { client } = mockClient({ faults: [{ type: 'no_done' }] });
    const stream = await client.completions.create({ ...params, stream: true });
    await expect((async () => {
      for await (const _ of stream);
    })()).rejects.toBeInstanceOf(APIConnectionError);
  });

  it.each([
    ['no prompt', { model: 'm' }, 'prompt'],
    ['empty prompt array', { model: 'm', prompt: [] }, 'prompt'],
    ['temperature 3', { ...params, temperature: 3 }, 'temperature'],
    ['negative max_tokens', { ...params, max_tokens: -1 }, 'max_tokens'],
    ['logprobs 6', { ...params, logprobs: 6 }, 'logprobs'],
  ])('rejects %s before sending', async (_, body, field) => {
    const { client, mock } = mockClient();
    await expect(client.completions.create(body as CompletionCreateParams)).rejects.toMatchObject({ name: 'ValidationError', field });
    expect(mock.requests).toHaveLength(0);
  });

  it('retries a server error', async () => {
    const { client, mock } = mockClient({ faults: [{ type: 'server_error' }] });
    await expect(client.completions.create(params)).resolves.toMatchObject({ object: 'text_completion', choices: [{ text: ' This is a mock completion of: Say this is a test' }] });
    expect(mock.requests).toHaveLength(2);
    const again = mockClient({ faults: [{ type: 'server_error', times: 3 }] }, { maxRetries: 0 });
    await expect(again.client.completions.create(params)).rejects.toBeInstanceOf(InternalServerError);
  });

  it('is a ValidationError for a chat model, answered by the gateway as 400', async () => {
    const { client } = mockClient();
    await expect(client.completions.create({ ...params, model: 'gpt-4o-mini' })).rejects.toMatchObject({ status: 400, param: 'model' });
    await expect(client.completions.create({ ...params, model: '' })).rejects.toBeInstanceOf(ValidationError);
  });

  it.each([[''], [['']], [['ok', '']]])('rejects the empty prompt %j before sending, as docs/text.md says', async (prompt) => {
    const { client, mock } = mockClient();
    await expect(client.completions.create({ ...params, prompt })).rejects.toMatchObject({ name: 'ValidationError', field: expect.stringMatching(/^prompt/) });
    expect(mock.requests).toHaveLength(0);
  });
});
