/** A generated block of a Markdown page: the text between its two marker comments. */
export interface Markers {
  start: string;
  end: string;
  /** The page, for the error when the markers are missing. */
  page: string;
}

/** The page with the text between the markers replaced by `table`. */
export function withBlock(text: string, markers: Markers, table: string): string {
  const start = text.indexOf(markers.start);
  const end = text.indexOf(markers.end);
  if (start < 0 || end < start) throw new Error(`${markers.page}: no markers ${markers.start} … ${markers.end}`);
  return `${text.slice(0, start + markers.start.length)}\n${table}\n${text.slice(end)}`;
}

/** The text between the markers as committed, trimmed. */
export function blockOf(text: string, markers: Markers): string {
  return text.slice(text.indexOf(markers.start) + markers.start.length, text.indexOf(markers.end)).trim();
}
