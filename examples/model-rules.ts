// One request for every model: modelRules renames, drops or reroutes what a model does not take, and says so.
import { Gateway, UnsupportedParameterError } from 'unified-gateway';
import { createMockGateway } from 'unified-gateway/testing';

// The strict mock answers as each vendor does (gpt-5 refuses max_tokens and a non-default
// temperature; o3-pro answers only on /v1/responses). Against your gateway, drop `fetch`
// and `baseURL` and set GATEWAY_API_KEY / GATEWAY_BASE_URL.
const mock = createMockGateway({ apiKey: 'test-key', catalog: 'strict' });
const client = new Gateway({
  apiKey: 'test-key',
  baseURL: 'http://mock.local/v1',
  fetch: mock.fetch,
  onAdapt: (e) => console.log(`  adapted (${e.source}): ${e.reason}`),
});

// The same canonical request for three kinds of model.
const request = { messages: [{ role: 'user' as const, content: 'Say hello' }], temperature: 0.2, max_tokens: 64 };

for (const model of ['deepseek-chat', 'gpt-5', 'o3-pro']) {
  console.log(`${model}:`);
  try {
    const completion = await client.chat.completions.create({ ...request, model });
    console.log(`  answered: ${completion.choices[0]?.message.content}`);
  } catch (error) {
    // Leaving temperature out would change the request: refused before anything is sent.
    if (!(error instanceof UnsupportedParameterError)) throw error;
    console.log(`  refused before sending: ${error.model} does not take ${error.param}; a rule that allows it: ${error.allowedBy}`);
  }
}

// Say which drops you accept, and the same request goes everywhere.
const relaxed = client.withOptions({ modelRules: { 'gpt-5*': { params: { temperature: 'drop' } }, 'o3-pro*': { params: { temperature: 'drop' } } } });
for (const model of ['gpt-5', 'o3-pro']) {
  const completion = await relaxed.chat.completions.create({ ...request, model });
  console.log(`${model} with the rule: ${completion.choices[0]?.message.content}`);
}
console.log(`requests sent: ${mock.requests.map((r) => `${r.path} ${String((r.body as { model?: string }).model)}`).join(', ')}`);

// A model your gateway serves only on /v1/responses, refused on chat/completions with a 404
// that does not say why: the client reads the gateway's own table (new-api's /api/pricing,
// `supported_endpoint_types`), learns where the model answers, and sends the call there.
const custom = createMockGateway({ apiKey: 'test-key', models: [{ id: 'acme-pro', owned_by: 'acme', kind: 'chat', family: 'openai-pro' }] });
custom.inject({ type: 'status', status: 404, path: 'chat/completions', body: { error: { message: 'The model acme-pro is not available.', type: 'invalid_request_error', code: 'model_not_found' } } });
const acme = new Gateway({ apiKey: 'test-key', baseURL: 'http://mock.local/v1', fetch: custom.fetch, onAdapt: (e) => console.log(`  adapted (${e.source}): ${e.reason}`) });
console.log('acme-pro:');
const acmeAnswer = await acme.chat.completions.create({ model: 'acme-pro', messages: [{ role: 'user', content: 'Say hello' }] });
console.log(`  answered: ${acmeAnswer.choices[0]?.message.content}`);
console.log(`  requests sent: ${custom.requests.map((r) => r.path).join(', ')}`);
