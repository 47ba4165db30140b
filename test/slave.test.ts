import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { VigilClient } from '../src/client/index.ts';
import { startBindPrimary, type Bind } from './helpers/bind.ts';
import { udpQuery } from './helpers/dns-client.ts';
import { addAccount, freePort, serve, type Served } from './helpers/server.ts';
import { hasTool } from './helpers/tools.ts';
import { eventually } from './helpers/wait.ts';

const PASSWORD = 'correct horse 8';
const ZONE = 'slave.example';

// SOA refresh of an hour: within the test only a NOTIFY can make Vigil look again.
const zoneText = (serial: number, ip: string) => `$TTL 300
@ IN SOA ns.master.example. admin.master.example. ${serial} 3600 600 86400 300
@ IN NS ns.master.example.
www IN A ${ip}
@ IN MX 10 mail
mail IN A 192.0.2.25
info 60 IN TXT "from the master"
_443._tcp.www IN TLSA 3 1 1 ABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB
www IN SSHFP 4 2 ABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB
odd IN SSHFP 4 3 01020304
_dns IN SVCB 1 dns.example.net. alpn=dot port=853
@ IN HTTPS 1 . alpn=h2
@ IN NAPTR 10 50 "S" "SIP+D2U" "" _sip._udp.slave.example.
_http._tcp IN PTR web.slave.example.
sub IN NS ns.master.example.
sub IN DS 60485 13 2 ABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB
`;

describe('slave domains: Vigil as the secondary of a real BIND 9 master', {
  skip: !hasTool('named') && 'named (bind9) not installed',
}, () => {
  let vigil: Served;
  let bind: Bind & { setZone(text: string): Promise<void> };
  let c: VigilClient;
  let dnsPort: number;

  before(async () => {
    dnsPort = await freePort();
    const bindPort = await freePort();
    bind = await startBindPrimary(bindPort, ZONE, zoneText(1, '192.0.2.1'), dnsPort);
    vigil = await serve({ args: ['--dns-port', String(dnsPort), '--domain-hold', 'none'] });
    c = vigil.client();
    await c.login(await addAccount(vigil.dataDir, 'slave', PASSWORD, '--dns-credits', '2'), 'slave', PASSWORD);
    await c.call('dnsAddDomain.php', { domain: ZONE, domaintype: 'slave', aup: 'YES' });
    assert.equal(
      (await c.post('dnsSetOptions.php', { apikey: c.apikey, sessionToken: c.sessionToken, domain: ZONE, masters: '' }))
        .body.error,
      'syntaxInvalidMasters',
    );
    await c.call('dnsSetOptions.php', { domain: ZONE, masters: `127.0.0.1:${bindPort}` });
  });
  after(async () => {
    await vigil?.stop();
    await bind?.stop();
  });

  test('Vigil transfers the zone from its master, serves it and shows it read-only', async () => {
    await eventually(
      async () => (await udpQuery(dnsPort, `www.${ZONE}`, 'A')).answers?.[0]?.data === '192.0.2.1',
      'first transfer',
    );
    // The master's own TTLs are kept (issue 16): a record's, and the zone's for the rest.
    assert.equal((await udpQuery(dnsPort, `info.${ZONE}`, 'TXT')).answers![0]!.ttl, 60);
    assert.equal((await udpQuery(dnsPort, `www.${ZONE}`, 'A')).answers![0]!.ttl, 300);
    const mx = await udpQuery(dnsPort, ZONE, 'MX');
    assert.deepEqual(mx.answers![0].data, { preference: 10, exchange: `mail.${ZONE}` });
    const r = await c.call('dnsGetDomainRecords.php', { domain: ZONE });
    assert.equal(r.state, 3);
    const types = Object.values(r.records as Record<string, any>)
      .map((x) => x.type)
      .sort();
    // The types beyond the spec come across too (issue 25); an SSHFP of a fingerprint type Vigil does not hold
    // (3) is left out, and the records after it in the transfer still read (dns-packet's decoder, replaced).
    assert.deepEqual(types, [
      'A',
      'A',
      'DS',
      'HTTPS',
      'MX',
      'NAPTR',
      'NS',
      'NS',
      'Options',
      'PTR',
      'SOA',
      'SSHFP',
      'SVCB',
      'TLSA',
      'TXT',
    ]);
    const tlsa = await udpQuery(dnsPort, `_443._tcp.www.${ZONE}`, 'TLSA');
    assert.deepEqual(tlsa.answers![0].data, {
      usage: 3,
      selector: 1,
      matchingType: 1,
      certificate: Buffer.from('AB'.repeat(32), 'hex'),
    });
    const svcb = Object.values(r.records as Record<string, any>).find((x) => x.type === 'SVCB');
    assert.deepEqual(svcb.data, { name: '_dns', priority: 1, target: 'dns.example.net.', params: 'alpn=dot port=853' });
    const add = await c.post('dnsAddA.php', {
      apikey: c.apikey,
      sessionToken: c.sessionToken,
      domain: ZONE,
      name: 'x',
      ip: '192.0.2.9',
    });
    assert.equal(add.body.error, 'unspecifiedError', 'read-only');
    const pub = await c.call('dnsPublish.php', { domain: ZONE });
    assert.match(pub.warnings[0], /masters/);
  });

  test('a change on the master reaches Vigil through NOTIFY', async () => {
    await bind.setZone(zoneText(2, '192.0.2.2'));
    await eventually(
      async () => (await udpQuery(dnsPort, `www.${ZONE}`, 'A')).answers?.[0]?.data === '192.0.2.2',
      'transfer after NOTIFY',
    );
    const soa = await udpQuery(dnsPort, ZONE, 'SOA');
    assert.equal(soa.answers![0].data.serial, 2);
  });

  test('a NOTIFY from an address that is not a master is refused', async () => {
    const dnsPacket = (await import('dns-packet')).default;
    const { udpRaw } = await import('./helpers/dns-client.ts');
    const msg = dnsPacket.encode({
      id: 9,
      type: 'query',
      flags: 4 << 11,
      questions: [{ type: 'SOA', name: 'unknown.example', class: 'IN' }],
    });
    const reply = await udpRaw(dnsPort, msg);
    assert.ok(reply);
    assert.equal(reply.readUInt16BE(2) & 0xf, 5, 'REFUSED');
  });
});
