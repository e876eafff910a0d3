import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isForbiddenAddress, type Resolver } from '../../../src/platform/ssrf.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { eventually, type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { useServer } from '../../helpers/server.ts';
import { client } from '../../helpers/webhooks.ts';

// A documentation-free public address that is only ever handed to the checks, never connected to: every name that
// resolves to it resolves to loopback from the second lookup on, and the connect-time check refuses loopback here.
const PUBLIC = '93.184.216.34';

describe('no server-side request forgery', () => {
  test('the refused addresses, checked without connecting', () => {
    for (const ip of [
      '127.0.0.1',
      '127.8.9.10',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.100.100.200',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '168.63.129.16',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      'ff02::1',
      'not-an-ip',
    ])
      assert.equal(isForbiddenAddress(ip), true, ip);
    for (const ip of [PUBLIC, '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      assert.equal(isForbiddenAddress(ip), false, ip);
  });

  test('IPv6 forms that carry a forbidden IPv4 are refused; those that carry a public one are not (issue 23, 5)', () => {
    // [address, what it carries]: written by hand from the RFCs, not computed from the code's ranges.
    const refused: Array<[string, string]> = [
      ['::ffff:127.0.0.1', 'IPv4-mapped (RFC 4291) loopback'],
      ['::ffff:7f00:1', 'IPv4-mapped loopback, in hex'],
      ['0:0:0:0:0:ffff:a9fe:a9fe', 'IPv4-mapped metadata 169.254.169.254'],
      ['::ffff:c0a8:101', 'IPv4-mapped 192.168.1.1'],
      ['::ffff:100.100.100.200', 'IPv4-mapped Alibaba metadata'],
      ['::127.0.0.1', 'IPv4-compatible (deprecated ::/96) loopback'],
      ['::7f00:1', 'IPv4-compatible loopback, in hex'],
      ['::a9fe:a9fe', 'IPv4-compatible metadata'],
      ['::10.0.0.1', 'IPv4-compatible private'],
      ['::8.8.8.8', 'IPv4-compatible: the whole deprecated block, public or not'],
      ['::ffff:0:127.0.0.1', 'IPv4-translated (RFC 6145) loopback'],
      ['::ffff:0:a00:1', 'IPv4-translated 10.0.0.1'],
      ['64:ff9b::127.0.0.1', 'NAT64 well-known prefix (RFC 6052) loopback'],
      ['64:ff9b::7f00:1', 'NAT64 loopback, in hex'],
      ['64:ff9b::a9fe:a9fe', 'NAT64 metadata'],
      ['64:ff9b::c0a8:101', 'NAT64 192.168.1.1'],
      ['64:ff9b:1::7f00:1', 'NAT64 local-use prefix (RFC 8215): the whole /48'],
      ['64:ff9b:1:7f00:1::', 'NAT64 local-use, IPv4 where a /48 prefix puts it'],
      ['2002:7f00:1::', '6to4 (RFC 3056) of 127.0.0.1'],
      ['2002:7f00:0001::1', '6to4 of 127.0.0.1, any host part'],
      ['2002:a9fe:a9fe::', '6to4 of the metadata address'],
      ['2002:a00:1::1', '6to4 of 10.0.0.1'],
      ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
      ['2002:6464:64c8::', '6to4 of 100.100.100.200'],
      ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo (RFC 4380) client 127.0.0.1, bits inverted'],
      ['2001:0:4136:e378:8000:63bf:5601:5601', 'Teredo client 169.254.169.254'],
      ['2001:0:a00:1::1', 'Teredo server 10.0.0.1'],
      ['2600:1f18::5efe:7f00:1', 'ISATAP (RFC 5214) interface id of 127.0.0.1'],
      ['2600:1f18::200:5efe:a9fe:a9fe', 'ISATAP, universal bit set, metadata'],
      ['fd00:ec2::254', 'AWS IPv6 metadata (unique-local)'],
      ['fe80::a9fe:a9fe', 'link-local'],
      ['::', 'unspecified'],
      ['::1', 'loopback'],
      ['ff02::1', 'multicast'],
      ['2001:db8::1', 'documentation'],
    ];
    for (const [ip, what] of refused) assert.equal(isForbiddenAddress(ip), true, `${ip}: ${what}`);
    const allowed: Array<[string, string]> = [
      ['2606:4700:4700::1111', 'a public IPv6 address'],
      ['::ffff:8.8.8.8', 'IPv4-mapped public'],
      ['64:ff9b::808:808', 'NAT64 of a public address (an IPv6-only host reaching it)'],
      ['2002:808:808::1', '6to4 of a public address'],
      ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'Teredo client 8.8.8.8'],
      ['2600:1f18::5efe:808:808', 'ISATAP of a public address'],
    ];
    for (const [ip, what] of allowed) assert.equal(isForbiddenAddress(ip), false, `${ip}: ${what}`);
  });

  describe('with WEBHOOK_ALLOW_PRIVATE_TARGETS off', () => {
    let receiver: Receiver;
    const lookups = new Map<string, number>();
    // Never asks a DNS server. rebind.test answers a public address once (the check at create), then loopback.
    const resolver: Resolver = async (host) => {
      const n = (lookups.get(host) ?? 0) + 1;
      lookups.set(host, n);
      if (host === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
      if (host === 'internal.test') return [{ address: '10.1.2.3', family: 4 }];
      if (host === 'mixed.test')
        return [
          { address: PUBLIC, family: 4 },
          { address: '192.168.0.9', family: 4 },
        ];
      if (host === 'rebind.test') return [{ address: n === 1 ? PUBLIC : '127.0.0.1', family: 4 }];
      if (host === 'rebind6.test') return [{ address: n === 1 ? PUBLIC : '2002:7f00:1::', family: n === 1 ? 4 : 6 }];
      if (host === 'sixtofour.test') return [{ address: '2002:a9fe:a9fe::1', family: 6 }];
      throw new Error('NXDOMAIN');
    };
    const server = useServer(
      { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'off', WEBHOOK_RETRY_SCHEDULE: '10m' },
      { resolve: resolver },
    );
    before(async () => {
      receiver = await startReceiver();
    });
    after(() => receiver.close());

    test('hosts that are or resolve to private addresses are refused at create and update', async () => {
      const api = await client(server, 'ssrf-org');
      const live = await client(server, 'ssrf-org', 'live');
      const refused = [
        'https://127.0.0.1/',
        'https://10.0.0.1/',
        'https://169.254.169.254/latest/meta-data',
        'https://[::1]/',
        'https://[::ffff:127.0.0.1]/',
        'https://[fd00:ec2::254]/',
        'https://100.100.100.200/',
        'https://0.0.0.0/',
        'https://localhost/',
        'https://internal.test/',
        'https://mixed.test/',
        'https://unknown.test/',
        'https://2130706433/',
      ];
      for (const url of refused) {
        for (const who of [api, live]) {
          const reply = await who.post('/v1/webhook_endpoints', { url, enabled_events: ['*'] });
          assertProblem(reply, 'parameter_invalid', 'url');
        }
      }
      assertProblem(
        await live.post('/v1/webhook_endpoints', { url: `http://${PUBLIC}/`, enabled_events: ['api_key.revoked'] }),
        'parameter_invalid',
        'url',
      );
      const ok = await api.post('/v1/webhook_endpoints', {
        url: `https://${PUBLIC}/`,
        enabled_events: ['fintech.transfer.created'],
      });
      assert.equal(ok.status, 200, 'a public address is accepted (never connected to: nothing is emitted to it)');
      assertProblem(
        await api.post(`/v1/webhook_endpoints/${ok.body.id}`, { url: 'https://10.9.9.9/' }),
        'parameter_invalid',
        'url',
      );
      await api.del(`/v1/webhook_endpoints/${ok.body.id}`);
    });

    test('IPv6 forms of private addresses are refused at create, update and connect (issue 23, 5)', async () => {
      const api = await client(server, 'ssrf6-org');
      for (const url of [
        'https://[::127.0.0.1]/',
        'https://[::ffff:7f00:1]/',
        'https://[2002:7f00:1::]/',
        'https://[64:ff9b::a9fe:a9fe]/',
        'https://[64:ff9b:1::a00:1]/',
        'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
        'https://sixtofour.test/',
      ])
        assertProblem(
          await api.post('/v1/webhook_endpoints', { url, enabled_events: ['*'] }),
          'parameter_invalid',
          'url',
        );
      const ok = await api.post('/v1/webhook_endpoints', { url: `https://${PUBLIC}/`, enabled_events: ['*'] });
      assert.equal(ok.status, 200, ok.text);
      assertProblem(
        await api.post(`/v1/webhook_endpoints/${ok.body.id}`, { url: 'https://[::ffff:0:a9fe:a9fe]/' }),
        'parameter_invalid',
        'url',
      );
      await api.del(`/v1/webhook_endpoints/${ok.body.id}`);

      const port = new URL(receiver.url).port;
      const rebound = await api.post('/v1/webhook_endpoints', {
        url: `http://rebind6.test:${port}/`,
        enabled_events: ['*'],
      });
      assert.equal(rebound.status, 200, rebound.text);
      const event = (await api.post(`/v1/webhook_endpoints/${rebound.body.id}/test`)).body;
      const delivery = await eventually(async () => {
        const d = (await api.get(`/v1/events/${event.id}/deliveries`)).body.data[0];
        return d.attempts.length > 0 ? d : undefined;
      });
      assert.match(delivery.attempts[0].error, /^refused: /, 'refused when connecting, not merely unreachable');
    });

    test('a sandbox endpoint refused for a private target names WEBHOOK_ALLOW_PRIVATE_TARGETS; a live one does not (issue 23, 10)', async () => {
      const sandbox = await client(server, 'hint-org');
      const live = await client(server, 'hint-org', 'live');
      const refused = await sandbox.post('/v1/webhook_endpoints', {
        url: 'http://localhost:4000/hook',
        enabled_events: ['*'],
      });
      assertProblem(refused, 'parameter_invalid', 'url');
      assert.match(refused.body.detail, /WEBHOOK_ALLOW_PRIVATE_TARGETS=on/);
      const liveRefused = await live.post('/v1/webhook_endpoints', {
        url: 'https://127.0.0.1/hook',
        enabled_events: ['*'],
      });
      assertProblem(liveRefused, 'parameter_invalid', 'url');
      assert.doesNotMatch(liveRefused.body.detail, /WEBHOOK_ALLOW_PRIVATE_TARGETS/);
    });

    test('DNS rebinding: a name that passed at create but resolves to loopback when connecting is refused then', async () => {
      const api = await client(server, 'rebind-org');
      const port = new URL(receiver.url).port;
      const created = await api.post('/v1/webhook_endpoints', {
        url: `http://rebind.test:${port}/hook`,
        enabled_events: ['*'],
      });
      assert.equal(created.status, 200, created.text);
      const event = (await api.post(`/v1/webhook_endpoints/${created.body.id}/test`)).body;
      const delivery = await eventually(async () => {
        const d = (await api.get(`/v1/events/${event.id}/deliveries`)).body.data[0];
        return d.attempts.length > 0 ? d : undefined;
      });
      assert.equal(delivery.attempts[0].response_status, null);
      assert.match(delivery.attempts[0].error, /^refused: .*private, loopback/);
      assert.equal(receiver.received.length, 0, 'nothing reached the loopback receiver');
      assert.ok(lookups.get('rebind.test')! >= 2, 'looked up again when connecting');
    });
  });

  describe('with WEBHOOK_ALLOW_PRIVATE_TARGETS on', () => {
    const server = useServer({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'on' });
    let receiver: Receiver;
    before(async () => {
      receiver = await startReceiver();
    });
    after(() => receiver.close());

    test('sandbox endpoints may target loopback (a name resolving to it included); live ones still may not', async () => {
      const api = await client(server, 'local-org');
      const port = new URL(receiver.url).port;
      const created = await api.post('/v1/webhook_endpoints', {
        url: `http://localhost:${port}/hook`,
        enabled_events: ['*'],
      });
      assert.equal(created.status, 200, created.text);
      const event = (await api.post(`/v1/webhook_endpoints/${created.body.id}/test`)).body;
      await receiver.until((all) => all.some((r) => r.headers['webhook-id'] === event.id));
      const live = await client(server, 'local-org', 'live');
      for (const url of ['https://127.0.0.1/', 'https://localhost/', 'https://10.0.0.1/'])
        assertProblem(
          await live.post('/v1/webhook_endpoints', { url, enabled_events: ['*'] }),
          'parameter_invalid',
          'url',
        );
    });
  });
});
