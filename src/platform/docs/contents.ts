import { escapeHtml } from './errors-page.ts';

/** An entry of Redoc's menu (its store's `menu.items`): a tag, a tag group, a section, or an operation. */
interface MenuItem {
  id: string;
  name: string;
  type: string;
  httpVerb?: string;
  items: MenuItem[];
}

/**
 * The reference's contents for a browser without JavaScript, where Redoc's server-rendered sidebar neither opens its
 * groups nor searches. It is built from Redoc's own menu, so every link's target is an id Redoc rendered
 * (`#tag/<Tag>/operation/<operationId>`), and sits in `<noscript>`: with JavaScript, Redoc's sidebar does the job
 * and this is never shown. Wide, it takes the place of that sidebar; narrow (Redoc's 50rem breakpoint), it heads
 * the page.
 */
export function noScriptContents(menu: MenuItem[]): { style: string; nav: string } {
  const entry = (item: MenuItem): string => {
    const name = escapeHtml(item.name);
    if (item.type === 'operation') {
      const verb = escapeHtml(item.httpVerb ?? '');
      return `<li><a href="#${escapeHtml(item.id)}"><span class="verb verb-${verb}">${verb}</span> <span>${name}</span></a></li>`;
    }
    const children = item.items.length === 0 ? '' : `<ol>${item.items.map(entry).join('')}</ol>`;
    return `<li class="${escapeHtml(item.type)}"><a href="#${escapeHtml(item.id)}">${name}</a>${children}</li>`;
  };
  return {
    style: `<noscript><style>${STYLE}</style></noscript>`,
    nav: `<noscript><nav class="contents" aria-labelledby="contents"><h2 id="contents">Contents</h2><ol>${menu.map(entry).join('')}</ol><p><a href="/docs/errors">The error catalogue</a></p></nav></noscript>`,
  };
}

// Redoc's sidebar keeps its width (its contents hidden: labels that open nothing and a search that needs script),
// and the contents are drawn over it; the floating menu button of narrow screens needs script too. Colours and
// sizes follow Redoc's default theme.
const STYLE = `.redoc-wrap>.menu-content>*,.redoc-wrap>.menu-content+div{display:none}
.contents{position:fixed;top:0;left:0;bottom:0;width:260px;box-sizing:border-box;overflow-y:auto;z-index:2;
padding:.5rem 1rem 1rem;background:#fafafa;color:#333;font:14px/1.5 Roboto,sans-serif}
.contents h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.05em;color:#555;margin:.75rem .25rem .25rem}
.contents ol{list-style:none;margin:0;padding:0}.contents li{margin:0}
.contents li ol{margin:0 0 .5rem .5rem}.contents li li a{display:flex;gap:.4rem;align-items:baseline}
.contents a{display:block;padding:.2rem .25rem;color:#333;text-decoration:none;border-radius:3px}
.contents a:hover,.contents a:focus{background:#e1e1e1;text-decoration:underline}
.contents li.tag>a,.contents li.group>a{font-weight:600;margin-top:.5rem}
.contents p{margin:1rem 0 0}.contents p a{color:#1a56b0;text-decoration:underline}
.verb{display:inline-block;width:3.4em;position:relative;top:-1px;border-radius:3px;text-align:center;font-size:.65rem;
font-weight:700;line-height:1.6;text-transform:uppercase;color:#fff;background:#555;flex:none}
.verb-get{background:#2f8132}.verb-post{background:#186faf}.verb-put{background:#95507c}
.verb-patch{background:#a04a17}.verb-delete{background:#c33}.verb-head{background:#a23dad}
@media print,screen and (max-width:50rem){.contents{position:static;width:auto;padding:1rem 40px;border-bottom:1px solid #e1e1e1}}`;
