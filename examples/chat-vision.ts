// Image input: send text and an image part (a data: URL here; an https URL works too).
import { Gateway } from 'unified-gateway';

const client = new Gateway();
const model = process.env.GATEWAY_VISION_MODEL ?? 'gpt-4o';

// A 1x1 red PNG.
const pixel = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const completion = await client.chat.completions.create({
  model,
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What colour is this image?' },
        { type: 'image_url', image_url: { url: pixel, detail: 'low' } },
      ],
    },
  ],
  max_tokens: 30,
});
console.log(completion.choices[0]?.message.content);
