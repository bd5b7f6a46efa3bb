// Speech to text: upload audio as multipart; json, verbose_json, or text/srt/vtt strings.
import { Gateway, toFile } from 'unified-gateway';

const client = new Gateway();
const model = process.env.GATEWAY_AUDIO_MODEL ?? 'whisper-1';

// Any Blob, bytes, fetch Response or fs.ReadStream works; here: a few bytes named talk.mp3.
const file = await toFile(new Uint8Array([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]), 'talk.mp3');

const { text } = await client.audio.transcriptions.create({ model, file, language: 'en' });
console.log(`json: ${text}`);

const srt = await client.audio.transcriptions.create({ model, file, response_format: 'srt' });
console.log(`srt:\n${srt.trim()}`);
