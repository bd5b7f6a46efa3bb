// Vercel AI SDK: generateText, streamText and embedMany through the gateway (unified-gateway/ai-sdk).
import { embedMany, generateText, streamText } from 'ai';
import { unifiedGateway as gw } from 'unified-gateway/ai-sdk';

// unifiedGateway reads GATEWAY_API_KEY and GATEWAY_BASE_URL on first use; createUnifiedGateway({ ... }) takes any Gateway option.
const model = process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini';

const { text, usage } = await generateText({ model: gw(model), prompt: 'Name one prime number above 10.' });
console.log(text, `(${usage.totalTokens} tokens)`);

// Usage is always requested on streams, so it is never NaN.
const stream = streamText({ model: gw(model), prompt: 'Count to five.' });
for await (const delta of stream.textStream) process.stdout.write(delta);
console.log(`\nstreamed: ${(await stream.usage).totalTokens} tokens`);

const { embeddings } = await embedMany({ model: gw.embeddingModel('text-embedding-3-small'), values: ['sun', 'moon', 'stars'] });
console.log(`embeddings: ${embeddings.length} of ${embeddings[0]?.length} dimensions`);
