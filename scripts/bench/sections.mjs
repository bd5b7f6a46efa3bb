// The benchmark scripts that measure apart from `npm run bench` (cache, embeddings, fleet)
// each own one "## " section of docs/benchmarks.md and rewrite only it.

/** `markdown` with the section that starts at `heading` replaced by `section`, or added before the section `before` (at the end without it). */
export function withSection(markdown, heading, section, before) {
  const start = markdown.indexOf(heading);
  if (start >= 0) {
    const next = markdown.indexOf('\n## ', start + heading.length);
    return markdown.slice(0, start) + section + (next >= 0 ? markdown.slice(next) : '');
  }
  const at = markdown.indexOf(before);
  return at >= 0 ? `${markdown.slice(0, at)}${section}\n${markdown.slice(at)}` : `${markdown}\n${section}`;
}
