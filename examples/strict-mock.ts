// Your own tool loop against every family of the strict mock: each reply pushed back as it came, on plain fetch.
import { createMockGateway, strictFamilies } from 'unified-gateway/testing';

// The mock plays each vendor as it is (docs/mock-gateway.md#the-strict-catalogue); plain fetch,
// so what you see is the wire, not the SDK's handling of these fields.
const mock = createMockGateway({ apiKey: 'test-key', catalog: 'strict' });
async function post(body: object): Promise<{ status: number; body: unknown }> {
  const res = await mock.fetch('http://mock.local/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: 'Bearer test-key', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const user = { role: 'user', content: 'Weather in Paris?' };
const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
type Message = { tool_calls?: Array<{ id: string; extra_content?: unknown }> } & Record<string, unknown>;

for (const family of strictFamilies) {
  if (family.endpoint === 'responses-only' || family.refusedParams.includes('tools')) continue;
  const model = family.ids[0] ?? '';
  const first = await post({ model, messages: [user], tools });
  const turn = (first.body as { choices?: Array<{ message: Message }> }).choices?.[0]?.message;
  const id = turn?.tool_calls?.[0]?.id;
  if (!turn || !id) {
    console.log(`${family.name.padEnd(20)} no tool call (${first.status})`);
    continue;
  }
  const extras = Object.keys(turn).filter((k) => !['role', 'content', 'refusal', 'tool_calls'].includes(k));
  if (turn.tool_calls?.[0]?.extra_content !== undefined) extras.push('tool_calls[0].extra_content');
  const second = await post({ model, messages: [user, turn, { role: 'tool', tool_call_id: id, content: '14 C' }], tools });
  // new-api cannot carry Claude's signature (docs/chat.md); a strict host refuses even the reply's own `refusal: null`.
  const why = second.status === 200 ? '' : ` ${JSON.stringify(second.body).slice(0, 110)}…`;
  console.log(`${family.name.padEnd(20)} ${model.padEnd(36)} carries ${extras.join(', ') || 'nothing extra'}; step 2: ${second.status}${why}`);
}
