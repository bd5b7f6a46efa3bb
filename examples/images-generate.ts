// Image generation: sizes are checked per model before sending; url or b64_json results.
import { Gateway, ValidationError } from 'unified-gateway';

const client = new Gateway();

const { data } = await client.images.generate({ model: 'dall-e-3', prompt: 'A lighthouse at dawn, watercolour', size: '1792x1024', quality: 'hd' });
console.log(`image url: ${data[0]?.url}`);

const b64 = await client.images.generate({ model: 'gpt-image-1', prompt: 'A red dot', size: '1024x1024', response_format: 'b64_json' });
console.log(`b64_json: ${b64.data[0]?.b64_json?.length} base64 characters`);

// For a documented model the types refuse a size it lacks ({ model: 'dall-e-3', size: '512x512' }
// does not compile); a model id chosen at run time is checked before anything is sent.
const model: string = process.env.IMAGE_MODEL ?? 'dall-e-3';
try {
  await client.images.generate({ model, prompt: 'x', size: '512x512' });
} catch (err) {
  if (err instanceof ValidationError) console.log(`caught before sending: ${err.field} ${err.rule}`);
}
