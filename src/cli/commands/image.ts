import type { ImageSize } from 'unified-gateway';
import { modelOption, requireOption, stringOption, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { checkOutPath, writeOut } from '../out-file.js';
import { resolvePrompt } from '../resolve-prompt.js';

/** `unified-gateway image <prompt> --out F`: one generated image, written to a file. */
export const image: Command = {
  name: 'image',
  summary: 'Generate an image and write it to a file',
  help: `Usage: unified-gateway image <prompt> --out FILE [--model M] [--size WxH]

Generate one image and write its bytes to FILE, then print the path written. The image
is asked for as base64; when the gateway answers with a URL only, the file is fetched from
it (with the API key only if the URL is on the gateway's own base URL).

Options:
  --out FILE     Where to write the image (required)
  --model M      The image model (default: dall-e-3)
  --size WxH     e.g. 1024x1024, 1792x1024 or 1024x1792 for dall-e-3

Examples:
  unified-gateway image "A lighthouse at dawn" --out lighthouse.png
  unified-gateway image "A paper boat" --model gpt-image-1 --size 1536x1024 --out boat.png`,
  options: {
    out: { type: 'string', short: 'o' },
    model: { type: 'string', short: 'm' },
    size: { type: 'string' },
  },
  argument: 'prompt',
  async run({ values, positionals, client, signal, io }) {
    const model = modelOption(values, 'dall-e-3', 'image');
    const out = requireOption(values, 'out', 'image');
    const size = stringOption(values, 'size');
    if (size !== undefined && !/^\d+x\d+$/.test(size)) throw new UsageError(`Option --size must look like 1024x1024, got '${size}'`, 'image');
    await checkOutPath(out, 'image');
    const prompt = await resolvePrompt(positionals[0], io, 'image');
    const gateway = client();
    const { data } = await gateway.images.generate(
      { model, prompt, n: 1, response_format: 'b64_json', ...(size ? { size: size as ImageSize } : {}) },
      { signal },
    );
    const first = data[0];
    if (first?.b64_json) {
      await writeOut(out, Buffer.from(first.b64_json, 'base64'), signal);
    } else if (first?.url) {
      // The key goes only to the client's own base-URL origins, redirects included.
      const response = await gateway.images.download(first, { signal });
      if (!response.body) throw new Error('The image download has no body.');
      await writeOut(out, response.body, signal);
    } else {
      throw new Error('The gateway answered without an image (no b64_json and no url in data[0]).');
    }
    io.stdout.write(`${out}\n`);
  },
};
