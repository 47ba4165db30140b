/** Writes a stranger may make, on real daemons: vsftpd anonymous upload, snmpd rwcommunity; the twins refuse. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { snmpd, vsftpdAnon } from '../../../test/helpers/daemons-net.ts';
import { which } from '../../../test/helpers/daemons-kit.ts';
import { Fence } from '../engine/fence.ts';
import type { HostFacts } from '../engine/types.ts';
import { checkById } from './catalogue.ts';

const ftpAnonymousWrite = checkById('vigil.ftp.anonymous-write');
const snmpWritable = checkById('vigil.snmp.write');

const WEAK = '127.0.41.10';
const HARD = '127.0.41.11';
const fence = new Fence([WEAK, HARD], ['127.0.0.0/8']);
const facts = (address: string, port: number, name: string): HostFacts => ({
  address,
  openPorts: [port],
  services: [
    { port, protocol: 'tcp', name, product: null, version: null, banner: null, tls: null, http: null, extra: {} },
  ],
});

describe('intrusive write checks, real daemons', () => {
  test('vsftpd: an anonymous upload directory is flagged (and the file removed); anonymous read-only is not', {
    skip: !which('vsftpd') && 'vsftpd not installed',
  }, async () => {
    const [weak, hard] = await Promise.all([vsftpdAnon(WEAK, true), vsftpdAnon(HARD, false)]);
    const [f] = await ftpAnonymousWrite.runOn(facts(WEAK, weak, 'ftp'), fence.net(WEAK));
    assert.match(f!.detail, /STOR of vigil-audit-\w+\.txt in \/drop succeeded \(226\), file deleted again/);
    assert.deepEqual(await ftpAnonymousWrite.runOn(facts(HARD, hard, 'ftp'), fence.net(HARD)), []);
  });

  test('snmpd: rwcommunity private is flagged; rocommunity public only is not', {
    skip: !which('snmpd') && 'snmpd not installed',
  }, async () => {
    await Promise.all([snmpd(WEAK, true), snmpd(HARD, false)]);
    const none: HostFacts = { address: WEAK, openPorts: [], services: [] };
    const [f] = await snmpWritable.runOn(none, fence.net(WEAK));
    assert.match(f!.detail, /community "private" set sysContact\.0/);
    assert.deepEqual(await snmpWritable.runOn({ ...none, address: HARD }, fence.net(HARD)), []);
  });
});
