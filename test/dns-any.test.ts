import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import dnsPacket from 'dns-packet';
import type { CycleLoop } from '../src/dns/cycle-loop.ts';
import { fastUdpAvailable } from '../src/dns/server/udp-fast.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { type Reply, tcpQuery, udpRaw } from './helpers/dns-client.ts';
import { freePort } from './helpers/server.ts';
import { hasTool } from './helpers/tools.ts';

const run = promisify(execFile);
const PASSWORD = 'correct horse 8482';
const ZONE = 'any.example';

/** An ANY question; `edns`: the OPT's payload size, `dnssec`: the DO bit. */
function anyQuery(name: string, opts: { edns?: number; dnssec?: boolean } = {}): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id: 4242,
    flags: 0,
    questions: [{ type: 'ANY' as string as dnsPacket.RecordType, name, class: 'IN' }],
    additionals: opts.edns
      ? [
          {
            type: 'OPT',
            name: '.',
            udpPayloadSize: opts.edns,
            flags: opts.dnssec ? dnsPacket.DNSSEC_OK : 0,
          } as dnsPacket.Answer,
        ]
      : [],
  });
}

const decode = (raw: Buffer | null) => dnsPacket.decode(raw!) as Reply;

/** The RRset types of an answer section, RRSIGs apart: [data types, types the RRSIGs cover]. */
function sets(answers: dnsPacket.Answer[] = []): [string[], string[]] {
  const data = [...new Set(answers.filter((a) => a.type !== 'RRSIG').map((a) => a.type))];
  const covered = answers
    .filter((a) => a.type === 'RRSIG')
    .map((a) => (a as { data: { typeCovered: string } }).data.typeCovered);
  return [data, [...new Set(covered)]];
}

/**
 * RFC 8482: an ANY question over UDP, with or without EDNS, is answered
 * with one RRset (the smallest at the name; with DO its RRSIGs too), never
 * a bare TC; over TCP the whole ANY answer as before.
 */
for (const io of fastUdpAvailable() ? ['native', 'node'] : ['node'])
  describe(`ANY over UDP is minimal (RFC 8482), over TCP whole (UDP I/O: ${io})`, () => {
    let t: TestApp;
    let port: number;

    before(async () => {
      port = await freePort();
      process.env.VIGIL_DNS_IO = io;
      t = await startTestApp({ dnsPort: port, domainHold: 'none', nsDomain: 'ns.vigil.test' });
      delete process.env.VIGIL_DNS_IO;
      t.clock.set(Date.now()); // signatures valid now, for dig
      const c = t.client();
      await c.login(await t.account('any', PASSWORD, { dnsCredits: 5 }), 'any', PASSWORD);
      const add = (script: string, fields: Record<string, string>) => c.call(script, { domain: ZONE, ...fields });
      await c.call('dnsAddDomain.php', { domain: ZONE, domaintype: 'master', aup: 'YES' });
      await add('dnsAddTXT.php', { name: '', txtdata: 'x'.repeat(2200) });
      await add('dnsAddA.php', { name: 'multi', ip: '192.0.2.1' });
      await add('dnsAddAAAA.php', { name: 'multi', ip: '2001:db8::1' });
      await add('dnsAddTXT.php', { name: 'multi', txtdata: 'a somewhat longer text than an address' });
      await c.call('dnsSetDNSSEC.php', { domain: ZONE, enable: 'YES' });
      assert.equal((await c.call('dnsPublish.php', { domain: ZONE })).errors, undefined);
      await (t.app.services.dns.schedule as CycleLoop).cycle();
    });
    after(() => t.close());

    test('without EDNS: one RRset, the smallest (A), no TC', async () => {
      const r = decode(await udpRaw(port, anyQuery(`multi.${ZONE}`)));
      assert.equal((r.flags ?? 0) & dnsPacket.TRUNCATED_RESPONSE, 0);
      assert.equal(r.rcode, 'NOERROR');
      assert.deepEqual(sets(r.answers), [['A'], []]);
    });

    test('with EDNS, no DO: one RRset; with DO: the RRset and its RRSIG', async () => {
      const plain = decode(await udpRaw(port, anyQuery(`multi.${ZONE}`, { edns: 1232 })));
      assert.deepEqual(sets(plain.answers), [['A'], []]);
      const signed = decode(await udpRaw(port, anyQuery(`multi.${ZONE}`, { edns: 1232, dnssec: true })));
      assert.deepEqual(sets(signed.answers), [['A'], ['A']]);
    });

    test('the apex of a signed zone with a 2,200-byte TXT: one small RRset, not the whole node', async () => {
      const q = anyQuery(ZONE, { edns: 4096, dnssec: true });
      const raw = (await udpRaw(port, q))!;
      const r = dnsPacket.decode(raw);
      const [data, covered] = sets(r.answers);
      assert.equal(data.length, 1, `one RRset, got ${data.join(' ')}`);
      assert.deepEqual(covered, data, 'signed with its own RRSIG');
      assert.ok(!data.includes('TXT'), 'not the large TXT');
      assert.ok(raw.length < 600, `${raw.length} bytes for a ${q.length}-byte question`);
    });

    test('over TCP: every RRset at the name, as before', async () => {
      const r = await tcpQuery(port, `multi.${ZONE}`, 'ANY');
      assert.deepEqual(sets(r.answers)[0].sort(), ['A', 'AAAA', 'NSEC', 'TXT']);
    });

    test('a name that does not exist: NXDOMAIN as for any type', async () => {
      const r = decode(await udpRaw(port, anyQuery(`nope.${ZONE}`)));
      assert.equal(r.rcode, 'NXDOMAIN');
    });

    test('dig ANY over UDP gets its answer without retrying over TCP', { skip: !hasTool('dig') }, async () => {
      // +notcp: dig asks ANY over TCP unless told otherwise.
      const args = ['@127.0.0.1', '-p', String(port), '+notcp', '+noedns', '+norec', `multi.${ZONE}`, 'ANY'];
      const { stdout } = await run('dig', args);
      assert.match(stdout, /\(UDP\)/);
      assert.doesNotMatch(stdout, /Truncated/);
      assert.match(stdout, /^multi\.any\.example\.\s+\d+\s+IN\s+A\s+192\.0\.2\.1$/m);
      assert.doesNotMatch(stdout, /\sIN\s+AAAA\s/);
    });
  });
