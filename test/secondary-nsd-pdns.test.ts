import { after, before, describe, test } from 'node:test';
import type { VigilClient } from '../src/client/index.ts';
import type { Bind } from './helpers/bind.ts';
import { udpQuery } from './helpers/dns-client.ts';
import { type Nsd, startNsdSecondary, startPdnsSecondary } from './helpers/secondaries.ts';
import { addAccount, freePort, serve, type Served } from './helpers/server.ts';
import { hasTool } from './helpers/tools.ts';
import { eventually } from './helpers/wait.ts';

// The NSD and PowerDNS sections of docs/secondaries.md, run as written (BIND and Knot: secondary.test.ts).
const PASSWORD = 'correct horse 6';
const CATALOG = 'catalog.vigil.invalid';

async function answer(port: number, name: string): Promise<string | undefined> {
  return (await udpQuery(port, name, 'A')).answers?.find((a) => a.type === 'A')?.data;
}

/** The A data of `name` from one reply that also carries the AA flag (else undefined). */
async function authoritative(port: number, name: string): Promise<string | undefined> {
  const reply = await udpQuery(port, name, 'A');
  return reply.flag_aa ? reply.answers?.find((a) => a.type === 'A')?.data : undefined;
}

/** Vigil with one secondary on `secondaryPort`, and a logged-in tenant. */
async function vigilFor(
  secondaryPort: number,
  userid: string,
): Promise<{ vigil: Served; c: VigilClient; dnsPort: number }> {
  const dnsPort = await freePort();
  const vigil = await serve({
    args: [
      '--dns-port',
      String(dnsPort),
      '--publish-interval',
      '300ms',
      '--domain-hold',
      'none',
      '--secondaries',
      `127.0.0.1:${secondaryPort}`,
      '--catalog-zone',
      CATALOG,
    ],
  });
  const c = vigil.client();
  await c.login(await addAccount(vigil.dataDir, userid, PASSWORD, '--dns-credits', '3'), userid, PASSWORD);
  return { vigil, c, dnsPort };
}

async function publishA(c: VigilClient, domain: string, name: string, ip: string): Promise<void> {
  await c.call('dnsAddA.php', { domain, name, ip });
  await c.call('dnsPublish.php', { domain });
}

describe('a stock PowerDNS secondary following the catalog zone', {
  skip:
    !(hasTool('pdns_server') && hasTool('sqlite3')) &&
    'pdns_server or sqlite3 (pdns-server, pdns-backend-sqlite3, sqlite3) not installed',
}, () => {
  let vigil: Served;
  let c: VigilClient;
  let pdns: Bind;

  before(async () => {
    const pdnsPort = await freePort();
    let dnsPort: number;
    ({ vigil, c, dnsPort } = await vigilFor(pdnsPort, 'pdns'));
    pdns = await startPdnsSecondary(pdnsPort, dnsPort, CATALOG);
  });
  after(async () => {
    // SHOW_LOGS=1 prints what the daemon logged: the first thing to read when a convergence times out.
    if (process.env.SHOW_LOGS) console.error(pdns?.log());
    await pdns?.stop();
    await vigil?.stop();
  });

  test('PowerDNS serves a new zone, follows a change after NOTIFY, and drops the zone after deletion', async () => {
    await c.call('dnsAddDomain.php', { domain: 'pdns.example', domaintype: 'master', aup: 'YES' });
    await publishA(c, 'pdns.example', 'www', '192.0.2.70');
    await eventually(
      async () => (await authoritative(pdns.port, 'www.pdns.example')) === '192.0.2.70',
      'PowerDNS serves the new zone with authority',
    );

    await publishA(c, 'pdns.example', 'api', '192.0.2.71');
    await eventually(
      async () => (await answer(pdns.port, 'api.pdns.example')) === '192.0.2.71',
      'PowerDNS follows a change',
    );

    await c.call('dnsDeleteDomain.php', { domain: 'pdns.example' });
    await eventually(
      async () => (await udpQuery(pdns.port, 'www.pdns.example', 'A')).rcode !== 'NOERROR',
      'PowerDNS drops the deleted zone',
    );
  });
});

describe('a stock NSD as a per-zone secondary (no catalog before NSD 4.9)', {
  skip: !hasTool('nsd') && 'nsd not installed',
}, () => {
  let vigil: Served;
  let c: VigilClient;
  let nsd: Nsd;
  let dnsPort: number;

  before(async () => {
    const nsdPort = await freePort();
    ({ vigil, c, dnsPort } = await vigilFor(nsdPort, 'nsd'));
    nsd = await startNsdSecondary(nsdPort, dnsPort);
  });
  after(async () => {
    if (process.env.SHOW_LOGS) console.error(nsd?.log());
    await nsd?.stop();
    await vigil?.stop();
  });

  test('the operator adds the zone; NSD serves it, follows a change after NOTIFY, and drops it when removed', async () => {
    await c.call('dnsAddDomain.php', { domain: 'nsd.example', domaintype: 'master', aup: 'YES' });
    await publishA(c, 'nsd.example', 'www', '192.0.2.80');
    // The operator adds the zone once Vigil serves it (before that Vigil refuses the transfer).
    await eventually(async () => (await answer(dnsPort, 'www.nsd.example')) === '192.0.2.80', 'Vigil serves the zone');
    await nsd.addZone('nsd.example');
    // Data and AA are read from one reply: while NSD reloads after the transfer, its old server
    // process still answers from the shared socket for a moment (SERVFAIL, no AA; NSD's query.c
    // sets AA on every in-zone answer), so a second query could meet it (CI, stop 37).
    await eventually(
      async () => (await authoritative(nsd.port, 'www.nsd.example')) === '192.0.2.80',
      'NSD serves the added zone with authority',
    );

    await publishA(c, 'nsd.example', 'api', '192.0.2.81');
    await eventually(
      async () => (await answer(nsd.port, 'api.nsd.example')) === '192.0.2.81',
      'NSD follows a change after NOTIFY',
    );

    await c.call('dnsDeleteDomain.php', { domain: 'nsd.example' });
    await nsd.delZone('nsd.example');
    await eventually(
      async () => (await udpQuery(nsd.port, 'www.nsd.example', 'A')).rcode !== 'NOERROR',
      'NSD drops the removed zone',
    );
  });
});
