import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { VigilClient } from '../src/client/index.ts';
import type { CycleLoop } from '../src/dns/cycle-loop.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import type { Bind } from './helpers/bind.ts';
import { dig, startKnotPrimary } from './helpers/knot-primary.ts';
import { addDelegation, newTypeAdds, qname } from './helpers/record-types.ts';
import { freePort, tempDir } from './helpers/server.ts';
import { hasTool } from './helpers/tools.ts';
import { eventually } from './helpers/wait.ts';

const run = promisify(execFile);
const PASSWORD = 'correct horse 8';
const Z = 'wire.example';
const missing = (...tools: string[]) => {
  const gone = tools.filter((t) => !hasTool(t));
  return gone.length ? `missing ${gone.join(', ')}` : false;
};
/** Wire type numbers, for dig's `TYPEnn` where it has no name. */
const CODES: Record<string, number> = { PTR: 12, DS: 43, TLSA: 52, SSHFP: 44, SVCB: 64, HTTPS: 65, NAPTR: 35 };

/** An AXFR as sorted, whitespace-normalized lines without the SOA. */
async function axfr(port: number, zone: string): Promise<string[]> {
  const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(port), zone, 'AXFR', '+nocmd', '+nostats']);
  return stdout
    .split('\n')
    .filter((l) => l && !l.startsWith(';'))
    .map((l) => l.trim().split(/\s+/).join(' '))
    .filter((l) => l.split(' ')[3] !== 'SOA')
    .sort();
}

/**
 * The seven new types on the wire: Vigil's name server (UDP and TCP)
 * answers each exactly as stock Knot DNS answers the zone text that
 * dnsBuildZone wrote; AXFR carries them; signed, they have RRSIGs that
 * delv, dnssec-verify and kzonecheck accept.
 */
describe('new record types on the wire, against Knot, and signed', () => {
  let t: TestApp;
  let c: VigilClient;
  let port: number;
  let knot: Promise<Bind> | undefined;
  /** Knot serving the zone text as built now (before signing); started by the first test that wants it. */
  const knotd = async () =>
    (knot ??= c.call('dnsBuildZone.php', { domain: Z }).then((r) => startKnotPrimary(Z, r.zone)));
  const adds = newTypeAdds(Z);
  const cycle = () => (t.app.services.dns.schedule as CycleLoop).cycle();

  before(async () => {
    port = await freePort();
    // Transfers are allowed to the secondaries' addresses: 127.0.0.1 (a port where nothing listens for NOTIFY).
    const secondaries = [`127.0.0.1:${await freePort()}`];
    t = await startTestApp({ dnsPort: port, domainHold: 'none', nsDomain: 'ns.vigil.test', secondaries });
    t.clock.set(Date.now()); // validators check signatures against the system's time
    c = t.client();
    await c.login(await t.account('wire', PASSWORD, { dnsCredits: 5 }), 'wire', PASSWORD);
    await c.call('dnsAddDomain.php', { domain: Z, domaintype: 'master', aup: 'YES' });
    await addDelegation(c, Z);
    for (const a of adds) await c.call(a.script, { domain: Z, ...a.fields });
    const pub = await c.call('dnsPublish.php', { domain: Z });
    assert.equal(pub.errors, undefined, JSON.stringify(pub.errors));
    await cycle();
  });
  after(async () => {
    await (await knot?.catch(() => undefined))?.stop();
    await t?.close();
  });

  test('Vigil answers each (name, type) over UDP and TCP exactly as Knot serving the built zone text', {
    skip: missing('knotd', 'dig'),
  }, async () => {
    const k = await knotd();
    for (const a of adds) {
      const q = [qname(a, Z), a.type];
      const want = await dig(k.port, q);
      assert.ok(want.answer.length > 0, `Knot has ${q.join(' ')}: ${k.log()}`);
      for (const tcp of ['+notcp', '+tcp']) {
        const got = await dig(port, [...q, tcp]);
        assert.deepEqual({ ...got, size: 0 }, { ...want, size: 0 }, `${q.join(' ')} ${tcp}`);
        assert.ok(got.size <= want.size, `${q.join(' ')} ${tcp}: ${got.size} bytes, Knot ${want.size}`);
      }
    }
  });

  test('AXFR from Vigil carries every record, as Knot transfers the same zone', {
    skip: missing('knotd', 'dig'),
  }, async () => {
    const vigil = await axfr(port, Z);
    for (const a of adds)
      assert.ok(
        vigil.some((l) => l.startsWith(`${qname(a, Z)} `) && l.split(' ')[3] === a.type),
        `${a.type} at ${qname(a, Z)} in AXFR`,
      );
    assert.deepEqual(vigil, await axfr((await knotd()).port, Z));
  });

  test('signed: every new record has its RRSIG; delv validates TLSA and HTTPS; dnssec-verify and kzonecheck accept the AXFR', {
    skip: missing('dig', 'delv', 'dnssec-verify', 'kzonecheck'),
  }, async () => {
    const on = await c.call('dnsSetDNSSEC.php', { domain: Z, enable: 'YES' });
    assert.equal(on.enabled, true);
    const pub = await c.call('dnsPublish.php', { domain: Z });
    assert.equal(pub.errors, undefined, JSON.stringify(pub.errors));
    await cycle();
    await eventually(async () => (await dig(port, [Z, 'DNSKEY'])).answer.length === 2, 'DNSKEYs served');
    for (const a of adds) {
      const { answer } = await dig(port, ['+dnssec', qname(a, Z), a.type]);
      const covered = answer.filter((l) => l.split(' ')[3] === 'RRSIG').map((l) => l.split(' ')[4]);
      assert.ok(
        covered.includes(a.type) || covered.includes(`TYPE${CODES[a.type]}`),
        `RRSIG over ${a.type} at ${qname(a, Z)}:\n${answer.join('\n')}`,
      );
    }

    const dir = tempDir('vigil-rr-signed-');
    const { dnskey } = await c.call('dnsGetDNSSEC.php', { domain: Z });
    const ksk = (dnskey as string[]).find((l) => / DNSKEY 257 /.test(l))!.split(/\s+/);
    const anchors = join(dir, 'anchors');
    writeFileSync(anchors, `trust-anchors { ${Z}. static-key 257 3 13 "${ksk.slice(7).join('')}"; };\n`);
    for (const [name, type] of [
      [`_443._tcp.www.${Z}`, 'TLSA'],
      [Z, 'HTTPS'],
      [`_8443._foo.api.${Z}`, 'SVCB'],
      [`enum.${Z}`, 'NAPTR'],
    ]) {
      const r = await run('delv', ['@127.0.0.1', '-p', String(port), '-a', anchors, `+root=${Z}`, name!, type!]).catch(
        (e) => e,
      );
      assert.match(`${r.stdout}${r.stderr}`, /; fully validated/, `${name} ${type}`);
    }

    const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(port), Z, 'AXFR', '+nocmd', '+nostats']);
    const file = join(dir, `${Z}.axfr`);
    // AXFR ends with the SOA again: the checkers want it once.
    const lines = stdout.split('\n').filter((l) => l && !l.startsWith(';'));
    writeFileSync(file, `${lines.slice(0, -1).join('\n')}\n`);
    const verify = await run('dnssec-verify', ['-o', Z, file]).catch((e) => e);
    assert.equal(verify.code ?? 0, 0, `${verify.stdout}${verify.stderr}`);
    const check = await run('kzonecheck', ['--dnssec', 'on', '-o', Z, file]).catch((e) => e);
    assert.equal(check.code ?? 0, 0, `${check.stdout}${check.stderr}`);
  });
});
