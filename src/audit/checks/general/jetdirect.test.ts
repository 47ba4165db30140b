/**
 * Raw printing on Debian's p910nd, each instance writing to a file of its
 * own (the "printer"), started once for the file on 127.14.94.x:9100
 * (test/helpers/sharing-daemons.ts): open to anyone, the check proves it
 * holding a connection with nothing sent, and the file stays empty: the
 * check prints nothing. The hardened twin is behind TCP wrappers ("p910nd:
 * ALL"), closes every connection at once and is not reported. Detection
 * names the open one `jetdirect` after PJL's status query, the one probe
 * it sends there: those 34 bytes are all the printer receives from it.
 * Root only (mount namespaces).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { p910ndCommand, RAW_PRINT_PORT } from '../../../../test/helpers/sharing-daemons.ts';
import { eventually } from '../../../../test/helpers/wait.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { holdSilent, PJL_INFO_ID, pjlId } from '../../proto/raw-print.ts';
import { checkById } from '../catalogue.ts';

const P910ND = which('p910nd');
const [OPEN, HARD] = ['127.14.94.201', '127.14.94.202'];
const skip = P910ND && process.getuid?.() === 0 ? false : 'needs root and p910nd (apt-get install p910nd)';

const printers: Record<string, string> = {};
function p910nd(addr: string, wrapped: boolean): Promise<number> {
  const dir = tempDir('p910nd');
  printers[addr] = join(dir, 'printer');
  const { cmd, args } = p910ndCommand(dir, addr, printers[addr]!, wrapped);
  return daemon(addr, cmd, () => args, { port: RAW_PRINT_PORT });
}
let started: Promise<unknown> | null = null;
const both = () => (started ??= Promise.all([p910nd(OPEN, false), p910nd(HARD, true)]));
const printed = (addr: string) => readFileSync(printers[addr]!);
const run = (addr: string) =>
  checkById('vigil.jetdirect.open').runOn(
    hostOf(addr, [service(RAW_PRINT_PORT, 'jetdirect', { extra: { rawPrint: 'silent to a PJL status query' } })]),
    netFor(addr),
  );

test('p910nd open to anyone: reported on a held connection, nothing printed; wrapped: not reported', {
  skip,
}, async () => {
  await both();
  const [f, ...more] = await run(OPEN);
  assert.equal(more.length, 0);
  assert.match(
    f!.detail,
    /^A connection to TCP 9100 with nothing sent was held open by the server for 1\.5 s .*: the port takes print jobs from anyone\. Nothing was sent by this check\.$/,
  );
  assert.equal(printed(OPEN).length, 0);
  assert.deepEqual(await run(HARD), []);
  // Refusing, not dead: the wrapped p910nd accepts and closes at once.
  assert.equal(await holdSilent(netFor(HARD), RAW_PRINT_PORT), 'closed');
});

test('detection: one PJL status query, then jetdirect; the printer got those bytes only', { skip }, async () => {
  await both();
  const before = printed(OPEN).length;
  const s = await detectOne(netFor(OPEN), RAW_PRINT_PORT, { nmapProbes: false });
  assert.equal(s.name, 'jetdirect');
  assert.equal(s.extra.rawPrint, 'silent to a PJL status query (UEL @PJL INFO ID UEL)');
  // p910nd copies to the file as it reads: wait for the bytes, then compare them all.
  await eventually(async () => printed(OPEN).length >= before + PJL_INFO_ID.length, 'the PJL query in the file');
  assert.deepEqual(printed(OPEN).subarray(before), PJL_INFO_ID);
});

test("PJL INFO ID answers as printers give them (no PJL printer runs here: the forms nmap's hp-pjl reads)", () => {
  assert.equal(pjlId(Buffer.from('@PJL INFO ID\r\n"HP LaserJet 4250"\r\n\f', 'latin1')), 'HP LaserJet 4250');
  assert.equal(pjlId(Buffer.from('@PJL INFO ID\r\nLEXMARK T640\r\n\f', 'latin1')), 'LEXMARK T640');
  assert.equal(pjlId(Buffer.from('@PJL INFO ID\r\n\r\n', 'latin1')), '');
  assert.equal(pjlId(Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n', 'latin1')), null);
});
