/**
 * A free-text field as people type it (a legal name, an org name): trimmed, 1–`max` characters (code points),
 * no control characters, no lone surrogates, and no invisible or direction-changing characters (Unicode
 * categories Cf, Zl, Zp: U+200B, U+202E, U+2028…), which let one name pass for another on a screen.
 * Returns the trimmed text, or null when it breaks the rule.
 */
export function cleanText(raw: string, max: number): string | null {
  // Checked before trimming: JavaScript's trim() would quietly drop U+2028, U+2029 and U+FEFF at either end.
  if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(raw) || !raw.isWellFormed()) return null;
  const text = raw.trim();
  const length = [...text].length;
  return length >= 1 && length <= max ? text : null;
}

/** What `cleanText` asks for, in words, for the detail of a refusal. */
export function cleanTextRule(param: string, max: number): string {
  return (
    `${param} must be 1–${max} characters after trimming, without control, invisible or direction-changing ` +
    'characters (such as U+200B or U+202E).'
  );
}
