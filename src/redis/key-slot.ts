// The hash slot of a key, as Redis Cluster computes it (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/#key-distribution-model):
// CRC16 (XMODEM: polynomial 0x1021, initial 0) of the key's UTF-8 bytes, modulo 16384. When
// the key holds a hash tag, a `{` then a `}` after it with at least one byte between them,
// only those bytes are hashed: keys of one tag share a slot, so one command may name several.

const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1;
    table[byte] = crc & 0xffff;
  }
  return table;
})();

/** CRC16/XMODEM of `bytes[start, end)`. */
function crc16(bytes: Uint8Array, start: number, end: number): number {
  let crc = 0;
  for (let i = start; i < end; i++) crc = ((crc << 8) & 0xffff) ^ (TABLE[((crc >> 8) ^ (bytes[i] as number)) & 0xff] as number);
  return crc;
}

const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }
const encoder = new TextEncoder();

/** The cluster slot (0 to 16383) of `key`, its hash tag considered. */
export function keySlot(key: string): number {
  const bytes = encoder.encode(key);
  const open = bytes.indexOf(OPEN);
  if (open !== -1) {
    const close = bytes.indexOf(CLOSE, open + 1);
    // `{}` (nothing between) is no tag: the whole key is hashed.
    if (close > open + 1) return crc16(bytes, open + 1, close) & 0x3fff;
  }
  return crc16(bytes, 0, bytes.length) & 0x3fff;
}
