// store-incidental: response rate limiting on the DNS listeners; publishing zones is tested on both engines elsewhere.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import dnsPacket from 'dns-packet';
import { distributionCycle } from '../src/dns/distribute.ts';
import { fastUdpAvailable } from '../src/dns/server/udp-fast.ts';
import { pino } from 'pino';
import { NameServer } from '../src/dns/server/name-server.ts';
import { ServingSet } from '../src/dns/server/serving-set.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { burst } from './helpers/dns-burst.ts';
import { queryPacket, tcpQuery } from './helpers/dns-client.ts';
import { freePort } from './helpers/server.ts';
import { eventually } from './helpers/wait.ts';

const PASSWORD = 'correct horse 28';
const ZONE = 'rrl.example';
const SECONDARY = '127.0.3.1';

/** A published zone with a name, a wildcard and a big TXT, served by `t`. */
async function publish(t: TestApp): Promise<void> {
  const c = t.client();
  await c.login(await t.account('rrl', PASSWORD, { dnsCredits: 5 }), 'rrl', PASSWORD);
  await c.call('dnsAddDomain.php', { domain: ZONE, domaintype: 'master', aup: 'YES' });
  await c.call('dnsAddA.php', { domain: ZONE, name: 'www', ip: '192.0.2.1' });
  await c.call('dnsAddA.php', { domain: ZONE, name: '*.wild', ip: '192.0.2.9' });
  assert.equal((await c.call('dnsPublish.php', { domain: ZONE })).errors, undefined);
  await distributionCycle(t.app.services.db, t.clock);
  await t.app.serving.load(t.app.services.db);
}

/** One Prometheus sample. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** One UDP question from `from`: its reply, or null when none came within 300 ms. */
async function askFrom(port: number, name: string, from: string): Promise<Buffer | null> {
  const r = await burst(port, queryPacket(name, 'A'), 1, from, 300);
  return r.replies[0] ?? null;
}
const isFull = (reply: Buffer | null) => reply !== null && (reply.readUInt16BE(2) & 0x0200) === 0;

// Both UDP paths: the native limiter (native/rrl.c, for the addon's cache hits) and rrl.ts (node:dgram).
for (const io of fastUdpAvailable() ? ['native', 'node'] : ['node'])
  describe(`response rate limiting (UDP I/O: ${io})`, () => {
    let t: TestApp;
    let port: number;
    let off: TestApp;
    let offPort: number;

    before(async () => {
      [port, offPort] = [await freePort(), await freePort()];
      process.env.VIGIL_DNS_IO = io;
      // The default rate (20), and a "secondary" whose address is exempt. The app's Clock stands still unless
      // the test moves it: no bucket refills behind a test's back.
      t = await startTestApp({
        dnsPort: port,
        domainHold: 'none',
        secondaries: [`${SECONDARY}:53`],
        metricsPort: await freePort(),
      });
      off = await startTestApp({ dnsPort: offPort, domainHold: 'none', dnsRrlRate: 0 });
      delete process.env.VIGIL_DNS_IO;
      await publish(t);
      await publish(off);
    });
    after(async () => {
      await t.close();
      await off.close();
    });

    test('a burst from one network: 20 full answers, then every second one TC and the rest dropped', async () => {
      const r = await burst(port, queryPacket(`www.${ZONE}`, 'A'), 100, '127.0.0.1');
      assert.equal(r.full, 20, JSON.stringify({ ...r, replies: r.replies.length }));
      assert.ok(r.tc >= 35 && r.tc <= 40, `TC: ${r.tc}`);
      assert.ok(r.dropped >= 35, `dropped: ${r.dropped}`);
      // The slip: header and question only, TC set, so the client retries over TCP.
      const slip = dnsPacket.decode(r.replies.find((x) => x.readUInt16BE(2) & 0x0200)!);
      assert.deepEqual(
        [slip.questions?.[0]?.name, slip.answers?.length, slip.authorities?.length],
        [`www.${ZONE}`, 0, 0],
      );
      // TCP is never limited: the retry is answered in full.
      assert.equal((await tcpQuery(port, `www.${ZONE}`, 'A')).answers?.[0]?.data, '192.0.2.1');
    });

    test('another /24 is another client: 127.0.1.x is answered while 127.0.0.x is limited', async () => {
      const other = await burst(port, queryPacket(`www.${ZONE}`, 'A'), 30, '127.0.1.7');
      assert.equal(other.full, 20);
      assert.equal(isFull(await askFrom(port, `www.${ZONE}`, '127.0.0.9')), false, '127.0.0.9 is in the limited /24');
    });

    test('another answer is another bucket; NXDOMAIN counts by zone, wildcard answers by the wildcard', async () => {
      const from = '127.0.4.1';
      assert.equal((await burst(port, queryPacket(`mail.${ZONE}`, 'A'), 25, from)).full, 20); // NXDOMAIN
      // Random names are one bucket: the zone's NXDOMAIN bucket, already spent above.
      const random = await burst(port, (i) => queryPacket(`nx${i}.${ZONE}`, 'A'), 20, from);
      assert.equal(random.full, 0);
      const wild = await burst(port, (i) => queryPacket(`r${i}.wild.${ZONE}`, 'A'), 30, from);
      assert.equal(wild.full, 20);
      assert.equal((await burst(port, queryPacket(`www.${ZONE}`, 'A'), 5, from)).full, 5, 'www is untouched');
    });

    test('a second on the Clock refills the bucket', async () => {
      const from = '127.0.5.1';
      assert.equal((await burst(port, queryPacket(`www.${ZONE}`, 'A'), 30, from)).full, 20);
      assert.equal(isFull(await askFrom(port, `www.${ZONE}`, from)), false);
      t.clock.advance(1000);
      // The native limiter hears the time within 100 ms (it is pushed to it); node:dgram's reads it at once.
      await eventually(async () => isFull(await askFrom(port, `www.${ZONE}`, from)), 'answered again');
      t.clock.advance(1000);
      await eventually(async () => isFull(await askFrom(port, `www.${ZONE}`, from)), 'full again');
      const again = await burst(port, queryPacket(`www.${ZONE}`, 'A'), 30, from);
      assert.ok(again.full >= 18 && again.full <= 20, `full: ${again.full}`);
    });

    test("the operator's --secondaries are exempt; their neighbours are not", async () => {
      const secondary = await burst(port, queryPacket(`www.${ZONE}`, 'A'), 60, SECONDARY);
      assert.deepEqual([secondary.full, secondary.tc], [60, 0]);
      // The same /24: limited as usual (the secondary's own answers took no tokens).
      const neighbour = await burst(port, queryPacket(`www.${ZONE}`, 'A'), 60, '127.0.3.2');
      assert.equal(neighbour.full, 20);
      assert.ok(neighbour.tc > 0);
    });

    test('--dns-rrl-rate 0 answers everything', async () => {
      const r = await burst(offPort, queryPacket(`www.${ZONE}`, 'A'), 200, '127.0.6.1');
      assert.deepEqual([r.full, r.tc], [200, 0]);
    });

    test('/metrics counts the drops and the slips', async () => {
      const text = await (await fetch(`http://${t.app.listeners.metrics}/metrics`)).text();
      assert.ok(sample(text, 'vigil_dns_rrl_total{action="drop"}') >= 35, text);
      assert.ok(sample(text, 'vigil_dns_rrl_total{action="slip"}') >= 35, text);
    });

    test('malformed questions are limited too (one bucket per opcode and RCODE)', async () => {
      const formerr = Buffer.concat([queryPacket(`www.${ZONE}`, 'A').subarray(0, 12), Buffer.from([0x05, 0x61])]);
      const r = await burst(port, formerr, 40, '127.0.7.1');
      assert.equal(r.full, 20);
      assert.ok((r.replies[0]!.readUInt16BE(2) & 0xf) === 1, 'FORMERR');
    });
  });

describe('over IPv6 (::1): limited as over IPv4, on both UDP paths (the /56 grouping: rrl.test.ts)', () => {
  for (const io of fastUdpAvailable() ? ['native', 'node'] : ['node'])
    test(`UDP I/O: ${io}`, async () => {
      process.env.VIGIL_DNS_IO = io;
      // No zone served: every question is REFUSED, one bucket per network.
      const server = new NameServer(new ServingSet(), pino({ level: 'silent' }), { dnsRrlRate: 10 });
      const v6port = await server.listen('::1', 0).finally(() => delete process.env.VIGIL_DNS_IO);
      try {
        const r = await burst(v6port, (i) => queryPacket(`n${i}.elsewhere.example`, 'A'), 40, '::1');
        assert.equal(r.full, 10);
        assert.ok(r.tc >= 13 && r.dropped >= 13, JSON.stringify({ ...r, replies: 0 }));
      } finally {
        await server.close();
      }
    });
});

describe('bin/vigil serve --dns-workers 2: each worker limits what it sees', () => {
  test('a burst is limited with the default rate; VIGIL_DNS_RRL_RATE=0 turns it off', async () => {
    const { serve, addAccount } = await import('./helpers/server.ts');
    const { udpQuery } = await import('./helpers/dns-client.ts');
    const start = async (env: Record<string, string>) => {
      const [dnsPort, metricsPort] = [await freePort(), await freePort()];
      const s = await serve({
        env,
        args: [
          ...['--dns-port', String(dnsPort), '--dns-workers', '2', '--metrics-port', String(metricsPort)],
          ...['--publish-interval', '300ms', '--domain-hold', 'none'],
        ],
      });
      return { s, dnsPort, metricsPort };
    };
    const on = await start({});
    const off = await start({ VIGIL_DNS_RRL_RATE: '0' });
    try {
      for (const { s, dnsPort } of [on, off]) {
        const c = s.client();
        await c.login(await addAccount(s.dataDir, 'w', PASSWORD, '--dns-credits', '1'), 'w', PASSWORD);
        await c.call('dnsAddDomain.php', { domain: ZONE, domaintype: 'master', aup: 'YES' });
        await c.call('dnsAddA.php', { domain: ZONE, name: 'www', ip: '192.0.2.1' });
        await c.call('dnsPublish.php', { domain: ZONE });
        await eventually(async () => (await udpQuery(dnsPort, `www.${ZONE}`, 'A')).answers?.length === 1, 'served');
      }
      const limited = await burst(on.dnsPort, queryPacket(`www.${ZONE}`, 'A'), 200, '127.0.8.1');
      // Two workers, 20 each, plus what the real clock refills while the burst goes out (2 a worker per
      // 100 ms; a few hundred ms here, more on a loaded machine): far below the 200 asked.
      assert.ok(limited.full < 100, `full: ${limited.full}`);
      assert.ok(limited.tc > 0 && limited.dropped > 0, JSON.stringify({ ...limited, replies: 0 }));
      const open = await burst(off.dnsPort, queryPacket(`www.${ZONE}`, 'A'), 200, '127.0.8.1');
      assert.deepEqual([open.full, open.tc], [200, 0]);
      // The workers report their counts once a second; /metrics adds them up.
      await eventually(async () => {
        const text = await (await fetch(`http://127.0.0.1:${on.metricsPort}/metrics`)).text();
        return sample(text, 'vigil_dns_rrl_total{action="drop"}') > 0;
      }, "the workers' drops in /metrics");
    } finally {
      assert.equal(await on.s.stop(), 0);
      assert.equal(await off.s.stop(), 0);
    }
  });
});
