/**
 * Reflection and amplification on loopback (issue 28): what one spoofable
 * UDP query to Vigil's name server sends back, and what a burst of 2,000
 * identical queries from one source gets.
 *
 * A signed zone whose apex holds one large TXT (2,200 bytes) beside the
 * SOA, NS, DNSKEY and NSEC. First an ANY query at the apex with EDNS 4096
 * and DO (the red team's 43-byte question): bytes in, bytes out. Then the
 * same question 2,000 times from one socket as fast as it can be sent:
 * how many replies came back in full, how many with TC (the RRL "slip"),
 * and how many were dropped. Everything stays on 127.0.0.1.
 *
 *   node --import tsx bench/hostile/amplification.ts [--io node] [-- serve flags…]
 *
 * e.g. `-- --dns-rrl-rate 0` for the server without rate limiting.
 */
import { createSocket } from 'node:dgram';
import dnsPacket from 'dns-packet';
import { addAccount, freePort, serve } from '../../test/helpers/server.ts';
import { udpQuery } from '../../test/helpers/dns-client.ts';
import { until } from '../dnsperf-kit.ts';

const ZONE = 'amp.example';
const BURST = 2000;
const io = process.argv.includes('--io') ? process.argv[process.argv.indexOf('--io') + 1]! : 'native';
const dash = process.argv.indexOf('--');
const extra = dash >= 0 ? process.argv.slice(dash + 1) : [];

const port = await freePort();
const vigil = await serve({
  env: io === 'node' ? { VIGIL_DNS_IO: 'node' } : {},
  args: ['--dns-port', String(port), '--publish-interval', '500ms', '--domain-hold', 'none', ...extra],
});
try {
  const c = vigil.client();
  await c.login(await addAccount(vigil.dataDir, 'amp', 'amp password', '--dns-credits', '1'), 'amp', 'amp password');
  await c.call('dnsAddDomain.php', { domain: ZONE, domaintype: 'master', aup: 'YES' });
  await c.call('dnsAddTXT.php', { domain: ZONE, name: '', txtdata: 'x'.repeat(2200) });
  await c.call('dnsSetDNSSEC.php', { domain: ZONE, enable: 'YES' });
  const pub = await c.call('dnsPublish.php', { domain: ZONE });
  if (pub.errors) throw new Error(pub.errors[0]);
  await until(async () => ((await udpQuery(port, ZONE, 'DNSKEY')).answers?.length ?? 0) >= 2, 'the signed zone');

  const question = (id: number) =>
    dnsPacket.encode({
      type: 'query',
      id,
      flags: 0,
      questions: [{ type: 'ANY' as string as dnsPacket.RecordType, name: ZONE, class: 'IN' }],
      additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 4096, flags: dnsPacket.DNSSEC_OK } as dnsPacket.Answer],
    });

  // Distinct /24s for the two measurements: the burst must not start with the first query's tokens spent.
  const one = await exchange(question(1), '127.0.0.1', 1);
  const single = one.replies[0];
  const decoded = single ? dnsPacket.decode(single) : null;
  console.log(`\nVigil (UDP I/O: ${io}; serve ${extra.join(' ') || 'defaults'})\n`);
  console.log(
    '| ANY at the apex, EDNS 4096 + DO | bytes in | bytes out | amplification | answer |\n|---|---|---|---|---|',
  );
  console.log(
    `| one query | ${question(1).length} | ${single?.length ?? 0} | ${((single?.length ?? 0) / question(1).length).toFixed(1)}x | ${
      decoded
        ? `${(decoded.flags ?? 0) & dnsPacket.TRUNCATED_RESPONSE ? 'TC, ' : ''}${[...new Set(decoded.answers?.map((a) => a.type))].join(' ')}`
        : 'none'
    } |`,
  );

  const burst = await exchange(question(2), '127.0.1.1', BURST);
  let full = 0;
  let tc = 0;
  let bytesOut = 0;
  for (const r of burst.replies) {
    bytesOut += r.length;
    if (r.readUInt16BE(2) & 0x0200) tc++;
    else full++;
  }
  const bytesIn = question(2).length * BURST;
  console.log(
    `\n| burst of ${BURST} from one source | answered in full | TC (slip) | dropped | bytes in | bytes out | amplification |`,
  );
  console.log('|---|---|---|---|---|---|---|');
  console.log(
    `| same ANY question | ${full} | ${tc} | ${BURST - full - tc} | ${bytesIn} | ${bytesOut} | ${(bytesOut / bytesIn).toFixed(1)}x |`,
  );
} finally {
  await vigil.stop();
}

/** Sends `count` copies of `query` from one socket bound to `from`; the replies that come back within 2 s of the last. */
async function exchange(query: Buffer, from: string, count: number): Promise<{ replies: Buffer[] }> {
  // A large receive buffer: the replies of a burst must not be lost on our side of loopback.
  const s = createSocket({ type: 'udp4', recvBufferSize: 8 << 20 });
  await new Promise<void>((res) => s.bind(0, from, () => res()));
  const replies: Buffer[] = [];
  let last = Date.now();
  s.on('message', (m) => {
    replies.push(m);
    last = Date.now();
  });
  for (let i = 0; i < count; i++) {
    const q = Buffer.from(query);
    q.writeUInt16BE(i & 0xffff, 0);
    await new Promise<void>((res) => s.send(q, port, '127.0.0.1', () => res()));
    // A turn of the event loop every 20 sends, so that our own socket is read while the burst goes out.
    if (i % 20 === 19) await new Promise((r) => setImmediate(r));
  }
  last = Date.now();
  while (Date.now() - last < 2000 && replies.length < count) await new Promise((r) => setTimeout(r, 100));
  s.close();
  return { replies };
}
