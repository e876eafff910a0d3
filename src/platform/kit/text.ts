/**
 * A free-text field as people type it (a legal name, an org name): trimmed, 1–`max` characters (code points),
 * no control characters, no lone surrogates. Returns the trimmed text, or null when it breaks the rule.
 */
export function cleanText(raw: string, max: number): string | null {
  const text = raw.trim();
  const length = [...text].length;
  return length >= 1 && length <= max && !/\p{Cc}/u.test(text) && text.isWellFormed() ? text : null;
}
