// Model fallback: when a model is unavailable, the same request goes to the next model of fallbackModels.
import { APIError, Gateway } from 'unified-gateway';

// A model id the gateway does not serve (yet): it answers model_not_found (404, or 503 from
// new-api), which no retry can cure, so the call moves on to the next model at once.
const primary = process.env.GATEWAY_PRIMARY_MODEL ?? 'gpt-5-preview';
const backupModel = process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini';

const client = new Gateway({
  fallbackModels: { [primary]: [backupModel] }, // per model id: the models to try next, in order
  hooks: {
    onModelFallback: ({ from, to, error }) =>
      console.log(`${from} unavailable (${error instanceof APIError ? `${error.status} ${error.code}` : error.name}), trying ${to}`),
  },
});
const messages = [{ role: 'user' as const, content: 'Name one prime number above 10.' }];

const completion = await client.chat.completions.create({ model: primary, messages });
console.log(`answered by ${completion.model}: ${completion.choices[0]?.message.content}`);

// Streams fall back too, as long as nothing has reached you yet.
const stream = await client.chat.completions.create({ model: primary, messages, stream: true });
const streamed = await stream.finalChatCompletion();
console.log(`streamed by ${streamed.model}: ${streamed.choices[0]?.message.content}`);

// A request's own list replaces the client's; [] turns fallback off for that call.
try {
  const direct = await client.chat.completions.create({ model: primary, messages }, { fallbackModels: [] });
  console.log(`without fallback, answered by ${direct.model}`);
} catch (err) {
  if (err instanceof APIError && err.code === 'model_not_found') console.log(`without fallback: ${err.name}, ${err.status} ${err.code}`);
  else throw err;
}
