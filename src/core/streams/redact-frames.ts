import { REDACTED, type Redactor } from '../../internal/redact.js';

// The client's keys out of a stream's frames before they are kept (the response cache). A
// model's tokens split a quoted key across frames ("sk-ab", "cd…"), so a frame-by-frame
// replace never sees it: each string field is read joined with the same field of every other
// frame (`choices.0.delta.content` across all chunks) and masked where a key lies in the join.

/** One string field of one frame: where it is, and where its text starts in its field's join. */
interface Leaf {
  frame: number;
  holder: Record<string | number, unknown>;
  key: string | number;
  text: string;
  start: number;
}

/** How deep a frame is walked: past this, nothing is a field a model writes into. */
const MAX_DEPTH = 16;

/**
 * The frames' JSON texts with every secret removed, looked for across frames field by field;
 * a frame with none is returned as the same string. A secret split across frames becomes
 * {@link REDACTED} in the frame where it starts, and disappears from the ones after.
 */
export function redactFrames(texts: readonly string[], redactor: Redactor): string[] {
  const frames = texts.map((text) => JSON.parse(text) as unknown);
  const fields = new Map<string, Leaf[]>();
  frames.forEach((frame, index) => collect(frame, { path: '', frame: index, depth: 0 }, fields));
  const changed = new Set<number>();
  for (const leaves of fields.values()) {
    const joined = leaves.map((leaf) => leaf.text).join('');
    const ranges = redactor.find(joined);
    if (ranges.length === 0) continue;
    for (const leaf of leaves) {
      const masked = mask(leaf, ranges);
      if (masked === leaf.text) continue;
      leaf.holder[leaf.key] = masked;
      changed.add(leaf.frame);
    }
  }
  return texts.map((text, i) => (changed.has(i) ? JSON.stringify(frames[i]) : text));
}

/** Collects a frame's string fields under their path (array positions kept: `choices.0.delta.content`). */
function collect(node: unknown, at: { path: string; frame: number; depth: number }, fields: Map<string, Leaf[]>): void {
  if (typeof node !== 'object' || node === null || at.depth > MAX_DEPTH) return;
  const holder = node as Record<string | number, unknown>;
  for (const key of Object.keys(holder)) {
    const value = holder[key];
    const path = `${at.path}.${key}`;
    if (typeof value !== 'string') {
      collect(value, { path, frame: at.frame, depth: at.depth + 1 }, fields);
      continue;
    }
    let leaves = fields.get(path);
    if (!leaves) fields.set(path, (leaves = []));
    const last = leaves[leaves.length - 1];
    leaves.push({ frame: at.frame, holder, key, text: value, start: last ? last.start + last.text.length : 0 });
  }
}

/** A leaf's text with the parts inside `ranges` (offsets in its field's join) masked: the marker where a range starts, nothing where it continues. */
function mask(leaf: Leaf, ranges: ReadonlyArray<[number, number]>): string {
  const end = leaf.start + leaf.text.length;
  let out = '';
  let at = leaf.start;
  for (const [from, to] of ranges) {
    if (to <= at || from >= end) continue;
    out += leaf.text.slice(at - leaf.start, Math.max(at, from) - leaf.start);
    if (from >= leaf.start) out += REDACTED;
    at = Math.min(to, end);
  }
  return out + leaf.text.slice(at - leaf.start);
}
