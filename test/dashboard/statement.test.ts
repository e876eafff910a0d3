/**
 * An account's statement as a CSV download, over HTTP (docs/dashboard.md#balances-and-statements): the headers of a
 * download, RFC 4180 lines that add up from the opening balance to the closing one, descriptions a spreadsheet will
 * not run, a refused period as a page with the API's problem, and another org's account not found.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { parseCsv } from '../helpers/csv.ts';
import { get, signIn } from '../helpers/dashboard.ts';
import { money } from '../helpers/money.ts';
import { useServer } from '../helpers/server.ts';

let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
const DESCRIPTIONS = ['=HYPERLINK("http://x","y")', '+1', '@SUM(A1)', '-2', 'Invoice 114, "final"'];

describe('a statement downloaded as CSV', () => {
  const server = useServer({}, { clock });
  let cookie: string;
  let a: string;
  let from: string;
  let to: string;
  let b: string;
  let key: string;
  let reversed: string;

  before(async () => {
    key = await server.key('dash-csv');
    const m = money(server.url, key);
    a = await m.account();
    b = await m.account();
    await m.post(`/v1/fintech/accounts/${a}`, { nickname: 'Café Opérations' });
    await m.post(`/v1/fintech/accounts/${b}`, { nickname: 'Fournisseur Zoë' });
    from = `${new Date(Date.now() - 3_600_000).toISOString().slice(0, 16)}Z`;
    await m.deposit(a, 100_000);
    for (const [i, description] of DESCRIPTIONS.entries())
      await m.post('/v1/fintech/transfers', {
        ...{ from_account_id: a, to_account_id: b, amount: 1000 + i, currency: 'USD', description },
      });
    const t = await m.post('/v1/fintech/transfers', {
      from_account_id: b,
      to_account_id: a,
      amount: 250,
      currency: 'USD',
    });
    await m.post(`/v1/fintech/transfers/${t.id}/reversals`, { amount: 100, description: 'Refund' });
    reversed = t.id;
    offsetMs = 5000; // every transaction above is before the period's end, which is not after now
    to = new Date(Date.now() + 2000).toISOString().replace(/\.\d+Z$/, 'Z');
    cookie = await signIn(server.url, key);
  });

  /** The download's bytes as sent (fetch's text() would drop a byte-order mark), decoded after checking for one. */
  async function download(path: string, session = cookie) {
    const response = await fetch(server.url + path, { headers: { cookie: session }, redirect: 'manual' });
    const bytes = Buffer.from(await response.arrayBuffer());
    return { response, bytes, text: bytes.toString('utf8') };
  }

  // Issue 40 item 7: the old file had no byte-order mark (accents broke in Excel), no counterparty, a reversal's
  // `trr_` alone, and the account's id alone in its name ("statement-acct_…-….csv").
  test('a download: text/csv with a BOM, named by nickname and period, lines in ledger order that add up', async () => {
    const { response, bytes, text } = await download(`/dashboard/accounts/${a}/statement.csv?from=${from}&to=${to}`);
    assert.equal(response.status, 200, text.slice(0, 500));
    assert.equal(response.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 with a byte-order mark');
    const disposition = response.headers.get('content-disposition') ?? '';
    const [day, toDay] = [from.slice(0, 10), to.slice(0, 10)];
    const utf8 = /filename\*=UTF-8''([^;]+)$/.exec(disposition)?.[1];
    assert.ok(utf8, disposition);
    assert.match(
      decodeURIComponent(utf8),
      new RegExp(`^statement-Café-Opérations-${day}T\\d{6}-to-${toDay}T\\d{6}\\.csv$`),
    );
    assert.match(disposition, /^attachment; filename="statement-Cafe-Operations-[\dT-]+-to-[\dT]+[\dT-]*\.csv"; /);
    const [head, opening, ...rest] = parseCsv(text.slice(1));
    const closing = rest.pop()!;
    assert.deepEqual(head, [
      ...['Time (UTC)', 'Transaction', 'Description', 'Source type', 'Source id'],
      ...['Counterparty account', 'Counterparty nickname', 'Reverses transfer'],
      ...['Amount (USD)', 'Balance after (USD)'],
    ]);
    assert.equal(opening![2], 'Opening balance');
    assert.equal(opening![9], '0.00');
    assert.equal(closing[2], 'Closing balance');
    assert.equal(
      rest.length,
      1 + DESCRIPTIONS.length + 2,
      'the deposit, the transfers out, the transfer in, its reversal',
    );
    const cents = (text: string) => Math.round(Number(text) * 100);
    let balance = cents(opening![9]!);
    for (const line of rest) {
      assert.match(line[0]!, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/, 'time to the second');
      assert.match(line[1]!, /^txn_/);
      balance += cents(line[8]!);
      assert.equal(cents(line[9]!), balance, `the balance after ${line[1]}`);
    }
    assert.equal(cents(closing[9]!), balance, 'the lines add up to the closing balance');
    assert.equal(balance, 100_000 - (1000 * 5 + 10) + 250 - 100);
    assert.deepEqual(
      rest.map((line) => line[3]),
      ['sandbox_deposit', ...DESCRIPTIONS.map(() => 'transfer'), 'transfer', 'transfer_reversal'],
      'oldest first',
    );
    // The counterparty of each transfer and of the reversal; the reversal names the transfer it reverses.
    assert.deepEqual(rest[0]!.slice(5, 8), ['', '', ''], 'a sandbox deposit has no counterparty account');
    for (const line of rest.slice(1)) assert.deepEqual(line.slice(5, 7), [b, 'Fournisseur Zoë']);
    assert.equal(rest.at(-2)![7], '', 'a transfer reverses nothing');
    assert.equal(rest.at(-1)![7], reversed, 'the reversal names its transfer');
    assert.match(rest.at(-1)![4]!, /^trr_/);
    // A description a spreadsheet would run as a formula gets a leading apostrophe; a plain one is as written.
    assert.deepEqual(
      rest.slice(1, 1 + DESCRIPTIONS.length).map((line) => line[2]),
      ['\'=HYPERLINK("http://x","y")', "'+1", "'@SUM(A1)", "'-2", 'Invoice 114, "final"'],
    );
    assert.equal(rest.at(-1)![2], 'Refund');
  });

  // Issue 40 item 2: the download asked for `accounts: read` (403); the API's statement needs `transactions: read`.
  test('a balances-only key (transactions: read) downloads it, named by id, its counterparty columns empty', async () => {
    const made = await fetch(`${server.url}/v1/api_keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ permissions: { transactions: 'read' } }),
    });
    const restricted = ((await made.json()) as { key: string }).key;
    const session = await signIn(server.url, restricted);
    const { response, text } = await download(`/dashboard/accounts/${a}/statement.csv?from=${from}&to=${to}`, session);
    assert.equal(response.status, 200, text.slice(0, 500));
    assert.match(response.headers.get('content-disposition') ?? '', /filename="statement-acct_\w+-/);
    const [, , ...rest] = parseCsv(text.slice(1));
    rest.pop();
    assert.equal(rest.length, 1 + DESCRIPTIONS.length + 2);
    for (const line of rest) assert.deepEqual(line.slice(5, 7), ['', ''], 'the accounts group is not this key’s');
    assert.equal(rest.at(-1)![7], reversed, 'the transfer a reversal reverses is part of the transaction it reads');
  });

  test('by default this month, read up to now: the page shows the moments the API used, to the millisecond', async () => {
    const asked = clock().getTime();
    const page = await get(server.url, `/dashboard/accounts/${a}`, cookie);
    const answered = clock().getTime();
    assert.equal(page.status, 200);
    const shown = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`);
    const period = /From (\S+ \S+) UTC up to (\S+ \S+) UTC, not including it\./.exec(page.html);
    assert.ok(period, 'the statement shows the period it covers');
    const now = new Date(asked);
    assert.equal(
      period[1],
      `${new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10)} 00:00:00`,
    );
    assert.match(period[2]!, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{3})?$/);
    const to = shown(period[2]!);
    assert.ok(asked <= to && to <= answered, `the 1st of next month is read as now: ${period[2]}`);
    assert.match(page.html, /Closing balance<\/dt><dd><span class="amount">951\.40 USD/);
    const at = /Current balance at (\S+ \S+) UTC/.exec(page.html)?.[1] ?? '';
    assert.match(at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{3})?$/, 'the balances now, to the millisecond');
    assert.ok(asked <= shown(at) && shown(at) <= answered, `the balances are now: ${at}`);
  });

  test('a download whose period ends after now stops at now, and adds up', async () => {
    const asked = clock().getTime();
    const page = await get(
      server.url,
      `/dashboard/accounts/${a}/statement.csv?from=${from}&to=2099-01-01T00:00Z`,
      cookie,
    );
    const answered = clock().getTime();
    assert.equal(page.status, 200, page.html.slice(0, 500));
    const [, opening, ...rest] = parseCsv(page.html.slice(1)); // after the byte-order mark
    const closing = rest.pop()!;
    const second = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19).replace('T', ' ');
    assert.ok(second(asked) <= closing[0]! && closing[0]! <= second(answered), `closing at now: ${closing[0]}`);
    const cents = (text: string) => Math.round(Number(text) * 100);
    const sum = rest.reduce((total, line) => total + cents(line[8]!), cents(opening![9]!));
    assert.equal(cents(closing[9]!), sum, 'the lines add up to the closing balance');
    assert.equal(sum, 95_140);
  });

  test('a refused period is a page with the API’s problem; a missing one is refused too', async () => {
    const backwards = await get(server.url, `/dashboard/accounts/${a}/statement.csv?from=${to}&to=${from}`, cookie);
    assert.equal(backwards.status, 400);
    assert.match(backwards.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(backwards.html, /to must be after from\./);
    assert.match(backwards.html, /parameter_invalid/);
    const long = await get(
      server.url,
      `/dashboard/accounts/${a}/statement.csv?from=2020-01-01T00:00Z&to=${to}`,
      cookie,
    );
    assert.equal(long.status, 400);
    assert.match(long.html, /at most 366 days/);
    const missing = await get(server.url, `/dashboard/accounts/${a}/statement.csv?from=${from}`, cookie);
    assert.equal(missing.status, 400);
    assert.match(missing.headers.get('content-type') ?? '', /^text\/html/);
  });

  test('another org’s account is not found, and nothing of it is sent', async () => {
    const other = await server.key('dash-csv-other');
    const theirs = await money(server.url, other).account();
    const page = await get(server.url, `/dashboard/accounts/${theirs}/statement.csv?from=${from}&to=${to}`, cookie);
    assert.equal(page.status, 404);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(page.headers.get('content-disposition'), null);
    assert.doesNotMatch(page.html, /Opening balance/);
  });

  test('the account page shows the statement for the period, and links its download', async () => {
    const page = await get(
      server.url,
      `/dashboard/accounts/${a}?from=${from.slice(0, -1)}&to=${to.slice(0, -1)}`,
      cookie,
    );
    assert.equal(page.status, 200);
    assert.match(page.html, /Opening balance<\/dt><dd><span class="amount">0\.00 USD/);
    assert.match(page.html, /Closing balance<\/dt><dd><span class="amount">951\.40 USD/);
    assert.match(page.html, /href="\/dashboard\/accounts\/acct_\w+\/statement\.csv\?from=[^"]+&amp;to=[^"]+" download/);
    const refused = await get(
      server.url,
      `/dashboard/accounts/${a}?from=${to.slice(0, -1)}&to=${from.slice(0, -1)}`,
      cookie,
    );
    assert.equal(refused.status, 200, 'the rest of the page stands');
    assert.match(refused.html, /id="f-to-error">to must be after from\./);
  });
});
