import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { VigilClient } from '../../src/client/index.ts';
import { addAccount, type Served, tempDir } from './server.ts';
import { eventually } from './wait.ts';

const run = promisify(execFile);
export const PASSWORD = 'correct horse 29';

/** serve flags for these tests: domains publish without a release, and a cycle (which signs) every second. */
export const SIGNING_ARGS = ['--domain-hold', 'none', '--publish-interval', '1s'];

/**
 * Account `ops` on `s`'s store with `zone` (www A 192.0.2.44) signed by a
 * real distribution cycle of a real `serve`. Returns the logged-in client
 * and the DS the API gives for the registrar.
 */
export async function signedZone(s: Served, zone: string): Promise<{ c: VigilClient; ds: string[] }> {
  const key = await addAccount(s.dataDir, 'ops', PASSWORD, '--dns-credits', '3');
  const c = s.client();
  await c.login(key, 'ops', PASSWORD);
  await c.call('dnsAddDomain.php', { domain: zone, domaintype: 'master', aup: 'YES' });
  await c.call('dnsAddA.php', { domain: zone, name: 'www', ip: '192.0.2.44' });
  await c.call('dnsSetDNSSEC.php', { domain: zone, enable: 'YES' });
  await c.call('dnsPublish.php', { domain: zone });
  return { c, ds: await dsOnceSigned(c, zone) };
}

/** The DS the API gives once the first cycle has made the zone's keys. */
export async function dsOnceSigned(c: VigilClient, zone: string): Promise<string[]> {
  let ds: string[] = [];
  await eventually(
    async () => (ds = (await c.call('dnsGetDNSSEC.php', { domain: zone })).ds as string[]).length > 0,
    `${zone} signed by a distribution cycle`,
  );
  return ds;
}

/** The KSK's DNSKEY fields (`257 3 13 base64`) of the DNSKEY lines dnsGetDNSSEC.php gives. */
export function kskOf(dnskey: string[]): string {
  const ksk = dnskey.find((l) => / DNSKEY 257 /.test(l));
  if (!ksk) throw new Error(`no KSK in ${dnskey.join('; ')}`);
  return ksk.split(/\s+/).slice(4).join(' ');
}

/**
 * BIND's delv at the name server on `port`, with `ksk` (`257 3 13 base64`)
 * as the zone's only trust anchor: its verdict and records. "fully
 * validated" proves the answer is signed by keys that chain to that KSK.
 */
export async function delv(port: number, zone: string, ksk: string, name: string, type: string): Promise<string> {
  const [flags, proto, alg, ...key] = ksk.split(/\s+/);
  const anchors = join(tempDir('vigil-anchor-'), 'anchors');
  writeFileSync(anchors, `trust-anchors { ${zone}. static-key ${flags} ${proto} ${alg} "${key.join('')}"; };\n`);
  const r = await run('delv', ['@127.0.0.1', '-p', String(port), '-a', anchors, `+root=${zone}`, name, type]).catch(
    (e) => e,
  );
  return `${r.stdout}${r.stderr}`;
}

/** Waits until delv at `port` fully validates `name` A holding `ip` under the KSK `ksk`. */
export async function validates(port: number, zone: string, ksk: string, name: string, ip: string): Promise<void> {
  let last = '';
  await eventually(async () => {
    last = await delv(port, zone, ksk, name, 'A');
    return /; fully validated/.test(last) && last.includes(ip);
  }, `delv validates ${name} A ${ip} at port ${port}`).catch((err) => {
    throw new Error(`${err.message}; last delv said: ${last}`);
  });
}
