import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import dnsPacket from 'dns-packet';
import type { VigilClient } from '../src/client/index.ts';
import type { CycleLoop } from '../src/dns/cycle-loop.ts';
import { fastUdpAvailable } from '../src/dns/server/udp-fast.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import type { Bind } from './helpers/bind.ts';
import { queryPacket, udpRaw } from './helpers/dns-client.ts';
import { dig, startKnotPrimary } from './helpers/knot-primary.ts';
import { freePort } from './helpers/server.ts';
import { hasTool } from './helpers/tools.ts';

const run = promisify(execFile);
const PASSWORD = 'correct horse 32';
const Z = 'squeeze.example';
/** An owner long enough that 20 records under it overflow 512 bytes unless their names are pointers. */
const LONG = `a-rather-long-owner-label-to-show-compression.many.${Z}`;
const missing = ['knotd', 'dig'].filter((t) => !hasTool(t));

const ZONE_TEXT = [
  ...Array.from({ length: 20 }, (_, i) => `${LONG}. 300 IN A 192.0.2.${i + 1}`),
  `www.${Z}. 300 IN A 192.0.2.80`,
  `alias.${Z}. 300 IN CNAME www.${Z}.`,
  `${Z}. 300 IN MX 10 mail.${Z}.`,
  `mail.${Z}. 300 IN A 192.0.2.25`,
  `sub.${Z}. 300 IN NS ns1.sub.${Z}.`,
  `sub.${Z}. 300 IN NS ns2.sub.${Z}.`,
  `ns1.sub.${Z}. 300 IN A 192.0.2.53`,
  `ns2.sub.${Z}. 300 IN A 192.0.2.54`,
  `_sip._tcp.${Z}. 300 IN SRV 1 2 5060 www.${Z}.`,
  // 8 exchanges of 4 addresses each: the MX answer fits 512 bytes, its additional addresses do not.
  ...Array.from({ length: 8 }, (_, i) => `many.${Z}. 300 IN MX ${i} mx${i}.many.${Z}.`),
  ...Array.from({ length: 32 }, (_, i) => `mx${i >> 2}.many.${Z}. 300 IN A 192.0.2.${100 + i}`),
].join('\n');

/** The questions both servers answer; dig without EDNS, so 512 bytes is the limit. */
const QUESTIONS = [
  [LONG, 'A'],
  [`www.${Z}`, 'A'],
  [`alias.${Z}`, 'A'],
  [Z, 'MX'],
  [Z, 'NS'],
  [Z, 'SOA'],
  [`host.sub.${Z}`, 'A'],
  [`nope.${Z}`, 'A'],
  [`www.${Z}`, 'TXT'],
  [`_sip._tcp.${Z}`, 'SRV'],
  [`many.${Z}`, 'MX'],
];

/**
 * Name compression (RFC 1035 4.1.4, issue 32): Vigil's replies say what
 * stock Knot's say for the same zone text, in no more bytes; 20 records
 * that only fit 512 bytes compressed come whole, without TC; the native
 * reply cache sends the same compressed bytes; a transfer is compressed.
 */
for (const io of fastUdpAvailable() ? ['native', 'node'] : ['node'])
  describe(`name compression, next to Knot (UDP I/O: ${io})`, {
    skip: missing.length ? `missing ${missing}` : false,
  }, () => {
    let t: TestApp;
    let c: VigilClient;
    let port: number;
    let knot: Bind;

    before(async () => {
      port = await freePort();
      process.env.VIGIL_DNS_IO = io;
      // Transfers allowed to 127.0.0.1 (a secondary where nothing listens for NOTIFY); RRL off: dig asks often.
      const secondaries = [`127.0.0.1:${await freePort()}`];
      t = await startTestApp({
        dnsPort: port,
        domainHold: 'none',
        nsDomain: 'ns.vigil.test',
        secondaries,
        dnsRrlRate: 0,
      });
      delete process.env.VIGIL_DNS_IO;
      c = t.client();
      await c.login(await t.account('squeeze', PASSWORD, { dnsCredits: 5 }), 'squeeze', PASSWORD);
      await c.call('dnsAddDomain.php', { domain: Z, domaintype: 'master', aup: 'YES' });
      const imported = await c.call('dnsImportZone.php', { domain: Z, zone: ZONE_TEXT });
      assert.deepEqual(imported.errors, [], JSON.stringify(imported));
      const pub = await c.call('dnsPublish.php', { domain: Z });
      assert.equal(pub.errors, undefined, JSON.stringify(pub.errors));
      await (t.app.services.dns.schedule as CycleLoop).cycle();
      // Knot serves what Vigil serves: its AXFR as a zone file (the closing SOA once is enough).
      const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(port), Z, 'AXFR', '+nocmd', '+nostats']);
      knot = await startKnotPrimary(
        Z,
        `${stdout
          .split('\n')
          .filter((l) => l && !l.startsWith(';'))
          .slice(0, -1)
          .join('\n')}\n`,
      );
    });
    after(async () => {
      await knot?.stop();
      await t?.close();
    });

    test('each answer is what Knot says, in no more bytes, over UDP and TCP', async () => {
      for (const q of QUESTIONS) {
        for (const transport of ['+notcp', '+tcp']) {
          const args = [...q, '+noedns', transport];
          const want = await dig(knot.port, args);
          const got = await dig(port, args);
          assert.deepEqual({ ...got, size: 0 }, { ...want, size: 0 }, args.join(' '));
          assert.ok(got.size <= want.size, `${args.join(' ')}: Vigil ${got.size} bytes, Knot ${want.size}`);
        }
      }
    });

    test('20 records that need 1,700 bytes written whole fit 512 compressed: no TC; the cached copy is the same', async () => {
      const query = queryPacket(LONG, 'A');
      const first = (await udpRaw(port, query))!;
      const decoded = dnsPacket.decode(first);
      assert.equal((decoded.flags ?? 0) & dnsPacket.TRUNCATED_RESPONSE, 0);
      assert.equal(decoded.answers!.length, 20);
      assert.ok(first.length <= 512, `${first.length} bytes`);
      assert.ok(dnsPacket.encode(decoded).length > 512 * 3, 'uncompressed, three times the limit');
      // The same bytes again: from the reply cache (native/udp-fast.c for the native I/O), ID aside.
      const again = (await udpRaw(port, query))!;
      assert.deepEqual(again.subarray(2), first.subarray(2));
    });

    test('too big for 512 bytes with its additional addresses: the answer comes without them, not with TC (RFC 2181 9)', async () => {
      const reply = dnsPacket.decode((await udpRaw(port, queryPacket(`many.${Z}`, 'MX')))!);
      assert.equal((reply.flags ?? 0) & dnsPacket.TRUNCATED_RESPONSE, 0);
      assert.equal(reply.answers!.length, 8);
      assert.equal(reply.additionals!.length, 0);
      // With room (EDNS 1232) the addresses come too.
      const roomy = dnsPacket.decode((await udpRaw(port, queryPacket(`many.${Z}`, 'MX', { edns: 1232 })))!);
      assert.equal(roomy.additionals!.filter((a) => a.type === 'A').length, 32);
    });

    test('a zone transfer is compressed: no more bytes than Knot sends', async () => {
      const size = async (p: number) => {
        const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(p), Z, 'AXFR']);
        return Number(/XFR size: \d+ records \(messages \d+, bytes (\d+)\)/.exec(stdout)?.[1]);
      };
      const [vigil, stock] = [await size(port), await size(knot.port)];
      assert.ok(vigil > 0 && vigil <= stock, `AXFR: Vigil ${vigil} bytes, Knot ${stock}`);
    });
  });
