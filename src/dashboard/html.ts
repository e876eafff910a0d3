import { escapeUTF8 } from 'entities/escape';

/**
 * HTML that is safe to send as it is: made only by the `html` tag (or from a constant of this code), never from a
 * string at run time. The type decides what is escaped, not a marker in the template: a value the tag receives
 * is escaped unless it is `Html` already, so a forgotten call can at worst escape twice, never inject.
 */
export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

/** What a template may interpolate: text and numbers (escaped), nothing (false, null, undefined), HTML, lists. */
export type Value = Html | string | number | bigint | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value instanceof Html) return value.text;
  if (value === null || value === undefined || value === false || value === true) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  // entities' escapeUTF8 (fb55/entities): & < > " ' as references, every other character as it is.
  return escapeUTF8(String(value));
}

/** The one template tag: every interpolated value is escaped unless it is `Html`. */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Attributes are always written quoted by the templates; a boolean attribute is present or absent. */
export const attr = (name: string, on: boolean): Html => new Html(on ? ` ${name}` : '');
