/**
 * The anchors GitHub gives a Markdown page's headings. No maintained slugger is among the dependencies (the
 * `slugify` in node_modules follows other rules), so this is github-slugger's rule in a few lines: the heading's
 * text (a link's text, not its URL), lowercased, every character that is not a letter, a mark, a digit, `_`, `-` or
 * a space removed, each space made `-`; a slug already given gets `-1`, then `-2`, and so on. Lines inside fenced
 * code blocks are not headings (a shell comment in an example starts with `#` too).
 */

export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor of the page, in order of its headings. */
export function anchorsOf(markdown: string): string[] {
  const anchors: string[] = [];
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      continue;
    }
    const heading = fence === null ? /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line) : null;
    if (heading === null) continue;
    const base = slug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.push(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}
