// Typed model ids: after `unified-gateway models --typescript --out gateway-models.d.ts`, every `model` field autocompletes the gateway's ids.
import { Gateway, type ModelId } from 'unified-gateway';

// With the generated file in the project, an editor offers the gateway's ids here, as in every
// request's `model`. Any other string still compiles: a model added since the file was
// generated works before you regenerate it.
const models = {
  chat: process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini',
  embeddings: 'text-embedding-3-small',
} satisfies Record<string, ModelId>;

const client = new Gateway();

// What types cannot tell: whether each id is still listed today.
const listed = new Set((await client.models.list()).data.map((m) => m.id));
for (const [use, id] of Object.entries(models)) console.log(`${use}: ${id} ${listed.has(id) ? 'is listed' : 'is NOT listed'}`);

const reply = await client.chat.completions.create({ model: models.chat, messages: [{ role: 'user', content: 'Say hi' }] });
console.log(reply.choices[0]?.message.content);
