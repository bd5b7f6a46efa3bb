// Image edit: upload an image (and optionally a mask) as multipart; any Blob, bytes, Response or fs.ReadStream works.
import { writeFileSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Gateway, toFile } from 'unified-gateway';

const client = new Gateway();

// A 1x1 PNG written to disk, to show an fs.ReadStream upload.
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
const path = join(tmpdir(), 'unified-gateway-example.png');
writeFileSync(path, png);

const fromDisk = await client.images.edit({ model: 'dall-e-2', image: createReadStream(path), prompt: 'Add a party hat', size: '256x256' });
console.log(`edited (fs.ReadStream): ${fromDisk.data[0]?.url}`);

// Bytes with a name and type, and a mask.
const image = await toFile(png, 'photo.png', { type: 'image/png' });
const withMask = await client.images.edit({ model: 'dall-e-2', image, mask: await toFile(png, 'mask.png'), prompt: 'Make it night', response_format: 'b64_json' });
console.log(`edited (toFile + mask): ${withMask.data[0]?.b64_json?.slice(0, 16)}...`);
