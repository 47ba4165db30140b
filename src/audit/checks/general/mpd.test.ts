/**
 * MPD on Debian's mpd, a `null` audio output and an empty music directory
 * (test/helpers/sharing-daemons.ts), two instances started once for the
 * file on 127.14.93.x: without a password, `status` and `outputs` are
 * answered to anyone and reported; the hardened twin has a password and no
 * default permissions, answers them "ACK [4@0] … you don't have
 * permission", and is not reported.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { mpdConf } from '../../../../test/helpers/sharing-daemons.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { mpdAsk } from '../../proto/mpd.ts';
import { checkById } from '../catalogue.ts';

const MPD = which('mpd');
const [OPEN, HARD] = ['127.14.93.211', '127.14.93.212'];
const skip = MPD ? false : 'mpd is not installed (apt-get install mpd)';

function mpd(addr: string, password?: string): Promise<number> {
  const dir = tempDir('mpd');
  return daemon(addr, MPD!, (port) => {
    const conf = join(dir, `mpd-${port}.conf`);
    writeFileSync(conf, mpdConf(dir, addr, port, password));
    return ['--no-daemon', '--stderr', conf];
  });
}
let started: Promise<[number, number]> | null = null;
const both = () => (started ??= Promise.all([mpd(OPEN), mpd(HARD, 'a-long-mpd-secret-41')]));
const run = (addr: string, port: number) =>
  checkById('vigil.mpd.open').runOn(hostOf(addr, [service(port, 'mpd')]), netFor(addr));

test('mpd without a password: status and outputs answered; with one, refused and not reported', { skip }, async () => {
  const [open, hard] = await both();
  const [f, ...more] = await run(OPEN, open);
  assert.equal(more.length, 0);
  assert.match(
    f!.detail,
    /^The server greeted "OK MPD \d+\.\d+\.\d+"; `status` was answered without a password \((?:volume: -?\d+, )?playlistlength: 0, state: stop\) and `outputs` listed 1 audio output \(bench null output\)\.$/,
  );
  assert.deepEqual(await run(HARD, hard), []);
  const refused = await mpdAsk(netFor(HARD), hard, ['status']);
  assert.match(refused!.answers[0]!.ack!, /^ACK \[4@0\] \{status\} you don't have permission for "status"$/);
});

test('detection names mpd by its greeting', { skip }, async () => {
  const [open] = await both();
  const s = await detectOne(netFor(OPEN), open, { nmapProbes: false });
  assert.equal(s.name, 'mpd');
  assert.match(s.extra.mpdProtocol!, /^\d+\.\d+\.\d+$/);
});
