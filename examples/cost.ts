// Cost as billed: each call priced with the gateway's own ratios, spend per tenant, a daily budget that refuses before sending, and the key's balance.
import { BudgetExceededError, Gateway, type CostEvent } from 'unified-gateway';

const model = process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini';
const events: CostEvent[] = [];
const client = new Gateway({
  // reads GATEWAY_API_KEY and GATEWAY_BASE_URL
  cost: true,
  // A tiny budget, so that the demo meets it: at most $0.001 a day for tenant 'acme'.
  budgets: [{ name: 'acme-daily', usd: 0.001, per: 'day', where: { tenant: 'acme' } }],
  onCost: (e) => events.push(e),
});

// 1) One call, priced as the gateway bills it.
const question = { model, messages: [{ role: 'user' as const, content: 'Name one prime number above 10.' }], max_tokens: 20 };
const { data, cost } = await client.chat.completions.create(question, { tags: { tenant: 'globex' } }).withResponse();
console.log(`1) ${JSON.stringify(data.choices[0]?.message.content)} cost ${cost ? `${cost.quota} quota ($${cost.usd}, ${cost.source})` : 'unknown (the gateway has no /api/pricing)'}`);

// 2) A stream: its cost comes at its end.
const stream = await client.chat.completions.create({ ...question, stream: true }, { tags: { tenant: 'globex' } });
for await (const _chunk of stream);
console.log(`2) streamed, cost ${JSON.stringify(await stream.cost())}`);

// 3) Tenant acme's calls until its budget refuses one, before anything is sent.
let sent = 0;
try {
  for (; sent < 50; sent++) await client.chat.completions.create(question, { tags: { tenant: 'acme' } });
  console.log('3) the budget never refused a call (the gateway prices this model at 0)');
} catch (error) {
  if (!(error instanceof BudgetExceededError)) throw error;
  console.log(`3) after ${sent} calls: ${error.message}`);
}

// 4) What the store recorded per tenant, and what the gateway says is left.
const spend = await client.spend({ by: 'tenant' });
console.log(`4) spend today by tenant: ${spend.groups.map((g) => `${g.value ?? '(none)'} ${g.quota} quota`).join(', ')}; onCost told ${events.length} times`);
const balance = await client.balance().catch((error: unknown) => error as Error);
console.log(balance instanceof Error ? `   balance: ${balance.message}` : `   balance: $${balance.available.usd} of $${balance.granted.usd} left (${balance.source})`);
