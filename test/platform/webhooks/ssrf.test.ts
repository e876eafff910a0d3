import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isForbiddenAddress, type Resolver } from '../../../src/platform/webhooks/ssrf.ts';
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
