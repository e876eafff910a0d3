/** A browser's part of the dashboard, over plain HTTP: a session cookie, and forms posted with their hidden fields. */

export interface Page {
  status: number;
  headers: Headers;
  html: string;
}

export async function get(base: string, path: string, cookie?: string, headers: Record<string, string> = {}) {
  const response = await fetch(base + path, {
    headers: { ...headers, ...(cookie ? { cookie } : {}) },
    redirect: 'manual',
  });
  return { status: response.status, headers: response.headers, html: await response.text() } satisfies Page;
}

/** POSTs a form as a browser on `origin` would (urlencoded, with its Origin), without following the redirect. */
export async function post(
  base: string,
  path: string,
  fields: Record<string, string>,
  options: { cookie?: string; origin?: string | null; headers?: Record<string, string> } = {},
): Promise<Page> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', ...options.headers };
  if (options.origin !== null) headers.origin = options.origin ?? base;
  if (options.cookie) headers.cookie = options.cookie;
  const response = await fetch(base + path, {
    method: 'POST',
    headers,
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** The `name=value` of the session cookie a response set. */
export function cookieOf(page: Page): string {
  const set = page.headers.getSetCookie().find((c) => /plinth_session=/.test(c));
  if (set === undefined) throw new Error(`no session cookie set (status ${page.status})`);
  return set.split(';')[0]!;
}

export async function signIn(base: string, key: string, headers: Record<string, string> = {}): Promise<string> {
  const page = await post(base, '/dashboard/sign-in', { key }, { headers });
  if (page.status !== 303) throw new Error(`sign-in answered ${page.status}: ${page.html.slice(0, 300)}`);
  return cookieOf(page);
}

/** The hidden fields (CSRF token, Idempotency-Key) of the form whose action is `action` on a page. */
export function hiddenFields(html: string, action: string): Record<string, string> {
  const start = html.indexOf(`action="${action}"`);
  if (start < 0) throw new Error(`no form posting to ${action}`);
  const form = html.slice(start, html.indexOf('</form>', start));
  const fields: Record<string, string> = {};
  for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[name!] = value!;
  return fields;
}
