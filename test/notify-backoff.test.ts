import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import { after, before, describe, test } from 'node:test';
import dnsPacket from 'dns-packet';
import { pino } from 'pino';
import type { VigilClient } from '../src/client/index.ts';
import { DEFAULTS } from '../src/config.ts';
import type { CycleLoop } from '../src/dns/cycle-loop.ts';
import { WAIT_MS } from '../src/dns/server/notify.ts';
import { UNRESPONSIVE_AFTER } from '../src/dns/server/notify-peers.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { type Bind, startKnotSecondary } from './helpers/bind.ts';
import { udpQuery } from './helpers/dns-client.ts';
import { freePort } from './helpers/server.ts';
import { hasTool } from './helpers/tools.ts';
import { eventually } from './helpers/wait.ts';

const PASSWORD = 'correct horse 5nb';
const CATALOG = DEFAULTS.catalogZone;
/** The mass change: enough zones that the dead peer is found out in the first round (UNRESPONSIVE_AFTER). */
const ZONES = ['a', 'b', 'c', 'd'].map((l) => `${l}.backoff.example`);

/** A secondary that reads every NOTIFY and answers none, until told to (`answering`). */
interface DeadPeer {
  port: number;
  /** Each NOTIFY received: its zone and the serial of its SOA. */
  got: { zone: string; serial: number }[];
  answering: boolean;
  close(): void;
}

async function deadPeer(): Promise<DeadPeer> {
  const socket: Socket = createSocket('udp4');
  const peer: DeadPeer = { port: 0, got: [], answering: false, close: () => socket.close() };
  socket.on('message', (msg, from) => {
    const q = dnsPacket.decode(msg) as any;
    peer.got.push({ zone: q.questions[0].name, serial: q.answers[0].data.serial });
    if (!peer.answering) return;
    const reply = Buffer.from(msg);
    reply[2]! |= 0x80; // QR: the NOTIFY's response (RFC 1996 3.3), same id and question
    socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((res) => socket.bind(0, '127.0.0.1', () => res()));
  peer.port = socket.address().port;
  return peer;
}

/** One sample of the Prometheus text; 0 for a series not there yet (a counter that never moved). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/**
 * A mass change behind a dead secondary (docs/secondaries.md, "A secondary
 * that does not answer"): Knot, live, hears of every zone at once while
 * the dead peer's NOTIFYs still wait for their first answer; once found
 * unresponsive the dead peer gets one NOTIFY a round, and when it answers
 * again it is told of every zone it missed, at each zone's latest serial.
 * NOTIFY's retries run on the app's clock, which the test moves: no sleep,
 * no time asserted. Before the fix every NOTIFY to the dead peer took its
 * three tries (a mass change of 100,000 zones: about 20 minutes).
 */
describe('NOTIFY behind a dead secondary', { skip: !hasTool('knotd') && 'knotd (knot) not installed' }, () => {
  let t: TestApp;
  let c: VigilClient;
  let knot: Bind;
  let dead: DeadPeer;
  let dnsPort: number;
  let metricsPort: number;
  const log: Record<string, any>[] = [];
  const cycle = () => (t.app.services.dns.schedule as CycleLoop).cycle();
  const metrics = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const notify = async (event: string) => sample(await metrics(), `vigil_dns_notify_total{event="${event}"}`);
  /** Moves the app's clock past one wait and waits until the dead peer has received `n` NOTIFYs in all. */
  const retryUntil = async (n: number) => {
    t.clock.advance(WAIT_MS);
    await eventually(async () => dead.got.length === n, `${n} NOTIFYs at the dead peer`);
  };
  const servedSerial = async (zone: string) => (await udpQuery(dnsPort, zone, 'SOA')).answers![0]!.data.serial;

  before(async () => {
    [dnsPort, metricsPort] = [await freePort(), await freePort()];
    const knotPort = await freePort();
    dead = await deadPeer();
    const logger = pino({ level: 'info' }, { write: (line: string) => void log.push(JSON.parse(line)) });
    t = await startTestApp(
      {
        dnsPort,
        metricsPort,
        domainHold: 'none',
        secondaries: [`127.0.0.1:${knotPort}`, `127.0.0.1:${dead.port}`],
      },
      { logger },
    );
    knot = await startKnotSecondary(knotPort, dnsPort, CATALOG);
    c = t.client();
    await c.login(await t.account('backoff', PASSWORD, { dnsCredits: ZONES.length }), 'backoff', PASSWORD);
  });
  after(async () => {
    await knot?.stop();
    await t?.close();
    dead?.close();
  });

  test('the live secondary is told at once; the dead one is backed off, then told of all it missed', async () => {
    for (const domain of ZONES) {
      await c.call('dnsAddDomain.php', { domain, domaintype: 'master', aup: 'YES' });
      await c.call('dnsAddA.php', { domain, name: 'www', ip: '192.0.2.1' });
      await c.call('dnsPublish.php', { domain });
    }
    await cycle();
    // Round 1: the zones and the catalog. Knot answers every NOTIFY while the clock has not moved,
    // so the dead peer's have had their first try alone.
    const first = ZONES.length + 1;
    // One poll for both: Knot's acknowledgements and the dead peer's NOTIFYs travel on separate sockets, so
    // the last of Knot's answers may be read before the last NOTIFY reaches the dead peer (the clock stands
    // still: no retry can make it more than `first`).
    await eventually(
      async () => (await notify('acknowledged')) === first && dead.got.length === first,
      'Knot acknowledged every NOTIFY; the dead peer got its first try of each',
    );
    assert.equal(await notify('unanswered'), 0);
    await eventually(
      async () => (await udpQuery(knot.port, `www.${ZONES[0]}`, 'A')).answers?.length === 1,
      'Knot serves the new zone',
    );

    // The dead peer's retries, on the clock; after the last wait it gives them up and is unresponsive.
    await retryUntil(2 * first);
    await retryUntil(3 * first);
    t.clock.advance(WAIT_MS);
    await eventually(async () => (await notify('unanswered')) === first, 'the dead peer given up');
    assert.ok(first >= UNRESPONSIVE_AFTER);
    assert.equal(sample(await metrics(), 'vigil_dns_notify_unresponsive_peers'), 1);
    const marked = log.filter((l) => l.msg === 'dns: NOTIFY peer unresponsive: one NOTIFY a round until it answers');
    assert.deepEqual(
      marked.map((l) => l.peer),
      [`127.0.0.1:${dead.port}`],
    );

    // Round 2, a change in every zone: Knot hears of each; the dead peer gets one NOTIFY, the rest wait.
    for (const domain of ZONES) {
      await c.call('dnsAddA.php', { domain, name: 'api', ip: '192.0.2.2' });
      await c.call('dnsPublish.php', { domain });
    }
    await cycle();
    // One poll again: the dead peer's one NOTIFY, and the others held back, are not ordered with Knot's answers.
    await eventually(
      async () =>
        (await notify('acknowledged')) === first + ZONES.length &&
        dead.got.length === 3 * first + 1 &&
        (await notify('deferred')) === ZONES.length - 1,
      'Knot acknowledged the second round; the dead peer got one NOTIFY, the rest held back',
    );

    // It answers again: its one NOTIFY's retry is acknowledged, and it is told of every zone at its latest serial.
    dead.answering = true;
    t.clock.advance(WAIT_MS);
    await eventually(
      async () => sample(await metrics(), 'vigil_dns_notify_unresponsive_peers') === 0,
      'the dead peer answers again',
    );
    assert.ok(log.some((l) => l.msg === 'dns: NOTIFY peer answers again' && l.peer === `127.0.0.1:${dead.port}`));
    const latest = new Map<string, number>();
    for (const zone of [...ZONES, CATALOG]) latest.set(zone, await servedSerial(zone));
    await eventually(async () => {
      const told = new Map(dead.got.map((g) => [g.zone, g.serial]));
      return [...latest].every(([zone, serial]) => told.get(zone) === serial);
    }, 'every zone at its latest serial');
    await eventually(async () => (await notify('acknowledged')) === first + 2 * ZONES.length + 1, 'all acknowledged');
  });
});
