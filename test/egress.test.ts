import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import dnsPacket from 'dns-packet';
import { pino } from 'pino';
import { DnsEgress } from '../src/dns/egress.ts';
import { NotifyPeers, notifyAll } from '../src/dns/server/notify-peers.ts';
import { SecondaryZones } from '../src/dns/server/secondary.ts';
import { buildZoneIndex } from '../src/dns/server/zone-index.ts';
import { defaultSoa } from '../src/dns/records.ts';
import type { VigilClient } from '../src/client/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

const PASSWORD = 'correct horse 12';
const CAPS = { maxRecords: 1000, maxBytes: 1 << 20 };

/** A DNS peer on 127.0.0.1 that counts what it is sent and answers every message at once (empty NOERROR). */
async function peer(): Promise<{ port: number; received: Buffer[]; close(): void }> {
  const received: Buffer[] = [];
  const socket: Socket = createSocket('udp4');
  socket.on('message', (msg, from) => {
    received.push(msg);
    const q = dnsPacket.decode(msg);
    socket.send(
      dnsPacket.encode({
        id: q.id,
        type: 'response',
        flags: (msg.readUInt16BE(2) & 0x7800) | 0x8000,
        questions: q.questions,
      }),
      from.port,
      from.address,
    );
  });
  await new Promise<void>((res) => socket.bind(0, '127.0.0.1', res));
  return { port: socket.address().port, received, close: () => socket.close() };
}

/** A logger whose lines the test reads. */
function capture() {
  const lines: any[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({ write: (chunk, _e, cb) => (lines.push(JSON.parse(String(chunk))), cb()) }),
  );
  return { logger, lines };
}

describe('DNS egress: nothing is sent for a held domain or outside --dns-peers-allow (issue 12, item 2)', () => {
  let t: TestApp;
  let c: VigilClient;
  let master: Awaited<ReturnType<typeof peer>>;

  before(async () => {
    master = await peer();
    t = await startTestApp({ domainHold: 'manual', dnsPeersAllow: ['127.0.0.2/32'] });
    c = t.client();
    await c.login(await t.account('slaver', PASSWORD, { dnsCredits: 5 }), 'slaver', PASSWORD);
    await c.call('dnsAddDomain.php', { domain: 'copy.example', domaintype: 'slave', aup: 'YES' });
    await c.call('dnsSetOptions.php', { domain: 'copy.example', masters: `127.0.0.1:${master.port}` });
  });
  after(async () => {
    master.close();
    await t.close();
  });

  const slaves = (egress: DnsEgress, logger = pino({ level: 'silent' })) =>
    new SecondaryZones(t.app.services.db, t.clock, async () => {}, logger, egress, CAPS);

  test('a slave domain on hold: its masters are not sent a packet, and its publish says it is held', async () => {
    await slaves(new DnsEgress(['127.0.0.0/8'])).tick();
    assert.equal(master.received.length, 0, 'no SOA query while on hold');
    const pub = await c.call('dnsPublish.php', { domain: 'copy.example' });
    assert.ok(pub.errors?.some((e: string) => /on hold/.test(e)));
  });

  test('once released, a master outside the fence is not asked, is logged and is a publish warning', async () => {
    assert.ok(await t.app.services.dns.domains.release('copy.example'));
    const { logger, lines } = capture();
    await slaves(new DnsEgress(['127.0.0.2/32']), logger).tick();
    assert.equal(master.received.length, 0, 'outside --dns-peers-allow');
    assert.ok(
      lines.some(
        (l) =>
          l.zone === 'copy.example' && /dns-peers-allow/.test(l.msg) && l.refused[0] === `127.0.0.1:${master.port}`,
      ),
    );
    const pub = await c.call('dnsPublish.php', { domain: 'copy.example' });
    assert.equal(pub.errors, undefined);
    assert.ok(
      pub.warnings.some((w: string) => w.startsWith(`no transfer will be asked from 127.0.0.1:${master.port}`)),
      pub.warnings.join('; '),
    );
  });

  test('inside the fence, or as a configured secondary, the master is asked', async () => {
    await slaves(new DnsEgress(['127.0.0.1/32'])).tick();
    assert.equal(master.received.length, 1, 'one SOA query');
    assert.equal(dnsPacket.decode(master.received[0]!).questions![0]!.type, 'SOA');
    await slaves(new DnsEgress(['127.0.0.2/32'], [{ address: '127.0.0.1', port: 53 }])).tick();
    assert.equal(master.received.length, 2, '--secondaries are always allowed');
  });

  test('a publish warns of every NOTIFY target outside the fence: in-zone NS hosts and alsonotify', async () => {
    await c.call('dnsAddDomain.php', { domain: 'notes.example', domaintype: 'master', aup: 'YES' });
    await t.app.services.dns.domains.release('notes.example');
    await c.call('dnsAddA.php', { domain: 'notes.example', name: 'ns5', ip: '127.0.0.7' });
    await c.call('dnsAddNS.php', { domain: 'notes.example', subdomain: '', nameserver: 'ns5.notes.example.' });
    await c.call('dnsSetOptions.php', { domain: 'notes.example', notify: 'yes', alsonotify: '127.0.0.9,127.0.0.2' });
    const pub = await c.call('dnsPublish.php', { domain: 'notes.example' });
    assert.equal(pub.errors, undefined);
    const refused = pub.warnings.filter((w: string) => w.startsWith('NOTIFY will not be sent to'));
    assert.deepEqual(refused.map((w: string) => w.split(' ')[6]).sort(), ['127.0.0.7:53:', '127.0.0.9:53:']);
  });
});

describe('NOTIFY goes only where the fence allows', () => {
  const index = (alsonotify: string) =>
    buildZoneIndex({
      zone: 'fenced.example',
      serial: 2026112301,
      records: [
        { seq: 1, type: 'SOA', data: defaultSoa('fenced.example', 'ns.vigil.test') },
        { seq: 2, type: 'NS', data: { name: '', data: 'ns1.ns.vigil.test.' } },
        { seq: 3, type: 'Options', data: { masters: '', allowtransferacl: '', notify: 'explicit', alsonotify } },
      ],
    });

  test('a refused alsonotify peer gets nothing and is logged; an allowed one gets the NOTIFY', async () => {
    const target = await peer();
    try {
      const zone = index(`127.0.0.1:${target.port}`);
      const { logger, lines } = capture();
      await notifyAll([zone], [], new DnsEgress(['127.0.0.2/32']), logger, new NotifyPeers(logger));
      assert.equal(target.received.length, 0);
      assert.ok(lines.some((l) => /NOTIFY not sent/.test(l.msg) && l.refused[0] === `127.0.0.1:${target.port}`));
      await notifyAll([zone], [], new DnsEgress(['127.0.0.0/8']), logger, new NotifyPeers(logger));
      assert.equal(target.received.length, 1);
      assert.equal((target.received[0]!.readUInt16BE(2) >> 11) & 0xf, 4, 'opcode NOTIFY');
    } finally {
      target.close();
    }
  });

  test('addresses are compared as addresses: mapped, compressed and IPv6 forms', () => {
    const egress = new DnsEgress(['127.0.0.0/8', '::1'], [{ address: '2001:db8::53', port: 53 }]);
    assert.ok(egress.allows('::ffff:127.0.0.5'), 'IPv4-mapped loopback');
    assert.ok(egress.allows('0:0::1'));
    assert.ok(egress.allows('2001:db8:0::53'), 'a configured secondary, however spelt');
    assert.ok(!egress.allows('::127.0.0.5'), 'IPv4-compatible is not IPv4');
    assert.ok(!egress.allows('192.0.2.1'));
    assert.ok(!egress.allows('::ffff:192.0.2.1'));
  });
});
