import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../../../src/index.js';
import { BASE, client } from '../../helpers/fixtures.js';
import { createRecorder, useMswServer } from '../../helpers/msw.js';

const server = useMswServer();
const model = { id: 'gpt-4o-mini', object: 'model', created: 1, owned_by: 'openai' };

describe('models.list', () => {
  it('returns the model list', async () => {
    server.use(http.get(`${BASE}/models`, () => HttpResponse.json({ object: 'list', data: [model] })));
    await expect(client().models.list()).resolves.toEqual({ object: 'list', data: [model] });
  });
});

describe('models.retrieve', () => {
  it('returns one model, with the id encoded into the path', async () => {
    const rec = createRecorder();
    server.use(
      http.get(`${BASE}/models/:id`, async ({ request }) => {
        await rec.record(request);
        return HttpResponse.json(model);
      }),
    );
    await expect(client().models.retrieve('vendor/model?x')).resolves.toEqual(model);
    expect(rec.calls[0]?.url).toBe(`${BASE}/models/vendor%2Fmodel%3Fx`);
  });

  it('rejects an unknown model with NotFoundError (model_not_found)', async () => {
    server.use(
      http.get(`${BASE}/models/:id`, () =>
        HttpResponse.json({ error: { message: 'The model does not exist', type: 'invalid_request_error', param: null, code: 'model_not_found' } }, { status: 404 }),
      ),
    );
    await expect(client().models.retrieve('nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('rejects an empty id before sending', async () => {
    await expect(client().models.retrieve('')).rejects.toBeInstanceOf(ValidationError);
  });

  it.each(['.', '..'])("refuses the id '%s', which would address another endpoint, before sending", async (id) => {
    const rec = createRecorder();
    // Anywhere: '.' would land on the model list, '..' on the API root.
    server.use(
      http.all('*', async ({ request }) => {
        await rec.record(request);
        return HttpResponse.json({ object: 'list', data: [model] });
      }),
    );
    const err = await client().models.retrieve(id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ field: 'id', rule: expect.stringContaining("other than '', '.' and '..'") });
    expect(rec.calls).toHaveLength(0);
  });
});
