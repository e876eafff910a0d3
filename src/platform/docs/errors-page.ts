import { type ErrorCode, errorCodes, problemType } from '../http/errors.ts';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function inlineCode(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
section{border-top:1px solid #ddd}:target{background:#fff8d0}nav ol{columns:2;padding-left:1.5rem}
a{color:#1a56b0}`;

/**
 * The error catalogue page: every problem `type` URI (`/docs/errors#<code>`) resolves to an entry here. It needs no
 * script: a table of contents links to each entry, and each entry back to it.
 */
export function errorCatalogueHtml(): string {
  const codes = Object.entries(errorCodes());
  const contents = codes.map(([code, e]) => `<li><a href="#${code}"><code>${code}</code></a> ${e.status}</li>`);
  const entries = codes.map(
    ([code, e]) =>
      `<section id="${code}"><h2><code>${code}</code> — ${e.status} ${escapeHtml(e.title)}</h2><p>${inlineCode(e.description)}</p><p>Problem type: <code>${problemType(code as ErrorCode)}</code></p><p><a href="#contents">Back to the contents</a></p></section>`,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Plinth errors</title><link rel="icon" href="/favicon.ico"><style>${STYLE}</style></head>
<body><p><a href="/docs">← The API reference</a></p><main><h1>Plinth error catalogue</h1><p>Every error is an RFC 9457 problem (<code>application/problem+json</code>). Switch on <code>code</code>; <code>title</code> and <code>detail</code> are for people.</p>
<nav aria-labelledby="contents"><h2 id="contents">Contents</h2><ol>${contents.join('\n')}</ol></nav>
${entries.join('\n')}</main></body></html>`;
}
