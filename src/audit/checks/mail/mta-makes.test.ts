/**
 * The mail checks on the MTAs beside Postfix: Exim (Debian's default MTA)
 * and OpenSMTPD, each weak configuration against a twin hardened as
 * Debian's default is. One daemon per configuration, started once for the
 * whole file; addresses 127.14.112.x (E3's range), ports from freePort().
 */
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { daemon, tempDir } from '../../../../test/helpers/daemons-kit.ts';
import {
  EXIM,
  eximArgs,
  eximConfig,
  eximDirs,
  mtaUsers,
  OPENSMTPD,
  opensmtpdCommand,
  opensmtpdConfig,
  UNSHARE,
} from '../../../../test/helpers/mta-daemons.ts';
import { certificate, hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { settle } from '../../engine/qod.ts';
import type { Finding, HostFacts } from '../../engine/types.ts';
import { checkById } from '../catalogue.ts';

const MAIL = ['vigil.smtp.open-relay', 'vigil.smtp.user-enum', 'vigil.smtp.cleartext-auth'].map(checkById);
const WEAK = '127.14.112.1';
const HARD = '127.14.112.100';
const root = process.getuid?.() === 0;

/** Every mail check's findings on one port, by check id. */
async function mailFindings(address: string, port: number): Promise<Map<string, Finding[]>> {
  const host: HostFacts = hostOf(address, [service(port, 'smtp')]);
  const out = new Map<string, Finding[]>();
  for (const c of MAIL) {
    const f = await c.runOn(host, netFor(address));
    if (f.length) out.set(c.id, f);
  }
  return out;
}

const detail = (m: Map<string, Finding[]>, id: string) =>
  m
    .get(id)
    ?.map((f) => f.detail)
    .join(' | ') ?? '';

const eximSkip = (!EXIM && 'exim4 is not unpacked (.ci/run EXTRACT: exim4-daemon-light)') || (!root && 'needs root');
const smtpdSkip =
  (!OPENSMTPD && 'smtpd is not unpacked (.ci/run EXTRACT: opensmtpd)') ||
  (!UNSHARE && 'unshare (util-linux) is missing') ||
  (!root && 'needs root');

let exim: { weak: number; hard: number } | null = null;
let smtpd: number | null = null;

before(async () => {
  if (!eximSkip || !smtpdSkip) mtaUsers();
  const dir = tempDir('mta');
  chmodSync(dir, 0o755); // Exim's daemon runs as Debian-exim and writes its spool below
  const { cert, key } = certificate(dir, { cn: 'mail.shop.example' });
  const start = async (name: string, o: Parameters<typeof eximConfig>[1], address: string) => {
    const d = join(dir, name);
    eximDirs(d);
    writeFileSync(join(d, 'exim.conf'), eximConfig(d, o));
    return daemon(address, EXIM!, (port) => eximArgs(join(d, 'exim.conf'), address, port));
  };
  if (!eximSkip) {
    const [weak, hard] = await Promise.all([
      start('exim-weak', { relay: true, vrfy: true, authCleartext: true }, WEAK),
      start('exim-hard', { tls: { cert, key } }, HARD),
    ]);
    exim = { weak, hard };
  }
  if (!smtpdSkip) {
    // OpenSMTPD refuses a private key others may read.
    const smtpdKey = join(dir, 'smtpd.key');
    copyFileSync(key, smtpdKey);
    chmodSync(smtpdKey, 0o600);
    const conf = join(dir, 'smtpd.conf');
    smtpd = await daemon(WEAK, opensmtpdCommand(conf).cmd, (port) => {
      writeFileSync(
        conf,
        opensmtpdConfig(dir, [
          { address: WEAK, port: port, relay: true },
          { address: HARD, port: port, tls: { cert, key: smtpdKey } },
        ]),
      );
      return opensmtpdCommand(conf).args;
    });
  }
});

test('Exim: an open relay, VRFY answered and AUTH PLAIN before TLS are found with the dialogue; a twin hardened as Debian ships it is silent', {
  skip: eximSkip,
}, async () => {
  const weak = await mailFindings(WEAK, exim!.weak);
  assert.match(
    detail(weak, 'vigil.smtp.open-relay'),
    /MAIL FROM:<relay-probe@vigil-audit\.invalid> \(answered 250 OK\), then RCPT TO:<relay-probe@example\.net> was accepted \(250\): "250 Accepted"/,
  );
  // Exim wants a domain in VRFY (501 for a bare name): asked again with the greeting's host name.
  assert.match(
    detail(weak, 'vigil.smtp.user-enum'),
    /^VRFY root@mail\.shop\.example → 250 <root@mail\.shop\.example> is deliverable; VRFY vigil\w+@mail\.shop\.example → 550/,
  );
  assert.match(
    detail(weak, 'vigil.smtp.cleartext-auth'),
    /offers AUTH PLAIN and no STARTTLS; AUTH PLAIN was answered "334/,
  );
  assert.deepEqual([...(await mailFindings(HARD, exim!.hard)).keys()], []);
  // The twin is up and hardened, not absent: STARTTLS offered, AUTH not before it.
  const seen = await detectOne(netFor(HARD), exim!.hard);
  assert.match(seen.extra.extensions ?? '', /STARTTLS/);
  assert.doesNotMatch(seen.extra.extensions ?? '', /AUTH/);
});

test('Exim: detection names it with its version; the Debian 4.96 package is not called vulnerable (LOG: fixes may be backported)', {
  skip: eximSkip,
}, async () => {
  const s = await detectOne(netFor(HARD), exim!.hard);
  assert.deepEqual([s.name, s.product, s.version], ['smtp', 'Exim smtpd', '4.96']);
  const version = checkById('vigil.version.exim');
  const [f] = await version.runOn(hostOf(HARD, [s]), netFor(HARD));
  assert.ok(f, 'a version entry for 4.96');
  assert.equal(settle(version, f).type, 'LOG', f.detail);
  assert.match(f.detail, /Debian 12 \(bookworm\)/);
});

test('RCPT TO enumeration on both twins (postmaster accepted, a random name refused at once) is a LOG, never an alarm', {
  skip: eximSkip || smtpdSkip,
}, async () => {
  const rcpt = checkById('vigil.smtp.rcpt-enum');
  for (const [name, port, refused] of [
    ['Exim', exim!.hard, /RCPT TO:<vigil\w+@mail\.shop\.example> → 550 Unrouteable address/],
    ['OpenSMTPD', smtpd!, /550 Invalid recipient/],
  ] as const) {
    const [f, ...more] = await rcpt.runOn(hostOf(HARD, [service(port, 'smtp')]), netFor(HARD));
    assert.equal(more.length, 0, name);
    assert.match(f?.detail ?? '', /^RCPT TO:<postmaster@mail\.shop\.example> → 250/, name);
    assert.match(f!.detail, refused, name);
    assert.equal(settle(rcpt, f!).type, 'LOG', name);
  }
});

test('OpenSMTPD: `match from any for any action relay` is found; VRFY (not implemented), AUTH (refused without TLS) and the Debian-like twin are silent', {
  skip: smtpdSkip,
}, async () => {
  const weak = await mailFindings(WEAK, smtpd!);
  assert.deepEqual([...weak.keys()], ['vigil.smtp.open-relay']);
  assert.match(detail(weak, 'vigil.smtp.open-relay'), /was accepted \(250\): "250 2\.1\.5 Destination address valid/);
  assert.deepEqual([...(await mailFindings(HARD, smtpd!)).keys()], []);
  const [weakSeen, hardSeen] = await Promise.all([detectOne(netFor(WEAK), smtpd!), detectOne(netFor(HARD), smtpd!)]);
  assert.deepEqual([weakSeen.name, weakSeen.product, hardSeen.product], ['smtp', 'OpenSMTPD', 'OpenSMTPD']);
  // The twin is up and hardened, not absent: STARTTLS offered, AUTH not before it.
  assert.match(hardSeen.extra.extensions ?? '', /STARTTLS/);
  assert.doesNotMatch(hardSeen.extra.extensions ?? '', /AUTH/);
});

test('an MTA that knows only HELO (500 to EHLO, as older and embedded servers answer) is greeted with HELO and still asked', async (t) => {
  const { createServer } = await import('node:net');
  // A loopback replay of such a server's replies (no Debian MTA refuses EHLO).
  const replies: [RegExp, string][] = [
    [/^EHLO /, '500 5.5.1 Command unrecognized'],
    [/^HELO /, '250 relay.old.example'],
    [/^MAIL FROM:/, '250 Sender ok'],
    [/^RCPT TO:<relay-probe@example\.net>/, '250 Recipient ok (will queue)'],
    [/^VRFY root\b/, '250 Super-User <root@relay.old.example>'],
    [/^VRFY /, '550 User unknown'],
    [/^RSET/, '250 Reset'],
    [/^QUIT/, '221 Bye'],
  ];
  const server = createServer((s) => {
    s.on('error', () => {}).write('220 relay.old.example SMTP ready\r\n');
    let buf = '';
    s.on('data', (d) => {
      buf += d.toString('latin1');
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const line = buf.slice(0, i).replace(/\r$/, '');
        buf = buf.slice(i + 1);
        s.write(`${replies.find(([re]) => re.test(line))?.[1] ?? '502 Not implemented'}\r\n`);
      }
    });
  });
  const port = await new Promise<number>((r) =>
    server.listen(0, WEAK, () => r((server.address() as { port: number }).port)),
  );
  t.after(() => server.close());
  const found = await mailFindings(WEAK, port);
  assert.match(detail(found, 'vigil.smtp.open-relay'), /was accepted \(250\): "250 Recipient ok/);
  assert.match(detail(found, 'vigil.smtp.user-enum'), /^VRFY root → 250 Super-User/);
  assert.equal(found.has('vigil.smtp.cleartext-auth'), false);
});
