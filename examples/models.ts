// Models: list the catalogue and look one model up.
import { Gateway } from 'unified-gateway';

const client = new Gateway();

const { data } = await client.models.list();
console.log(`${data.length} models, e.g. ${data.slice(0, 4).map((m) => m.id).join(', ')}`);

const model = await client.models.retrieve(process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini');
console.log(`${model.id} is served by ${model.owned_by}`);
