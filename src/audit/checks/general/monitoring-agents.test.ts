/**
 * Monitoring agents open to anyone, on real Debian daemons, each against its hardened twin (the same
 * daemon allowing only 127.0.0.200): munin-node (`allow ^.*$`), zabbix_agentd (Server=0.0.0.0/0, with
 * and without AllowKey=system.run[*]) and NRPE (no allowed_hosts; TLS by default and -n in the clear).
 * Detection runs first, as in an audit: a TLS NRPE is named "ssl" there, and the port rule still finds it.
 */
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { certificate, hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { detectServices } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const WEAK = '127.0.74.41';
const TWIN = '127.0.74.42';
const MUNIN = which('munin-node');
const ZABBIX = which('zabbix_agentd');
const NRPE = which('nrpe');

/**
 * The check on the port, as detection named it (`detect`), or as "unknown": what detection makes of a
 * silent Zabbix agent or a plain NRPE (measured), without its 12 s of probes per port.
 */
async function run(id: string, address: string, port: number, detect = false) {
  const net = netFor(address);
  const services = detect ? await detectServices(net, [port], { bannerMs: 1500 }) : [service(port, 'unknown')];
  return checkById(id).runOn(hostOf(address, services), net);
}

/** A config file in a directory the daemon's own user (zabbix, nagios) may write its pid file to. */
function conf(tag: string, text: (dir: string) => string): string {
  const dir = tempDir(tag);
  chmodSync(dir, 0o777);
  const file = join(dir, 'conf');
  writeFileSync(file, text(dir));
  return file;
}

function munin(address: string, allow: string): Promise<number> {
  return daemon(address, MUNIN!, (port) => {
    const file = conf('munin', (d) =>
      [`log_file ${d}/log`, `pid_file ${d}/pid`, 'background 0', 'setsid 0', 'user root', 'group root']
        .concat([`allow ${allow}`, `host ${address}`, `port ${port}`, ''])
        .join('\n'),
    );
    return ['--config', file, '--foreground'];
  });
}

test('munin-node allowing everyone is found with its plugin list; allow ^127\\.0\\.0\\.200$ is not', {
  skip: MUNIN ? false : 'munin-node is not installed',
}, async () => {
  const [open, twin] = await Promise.all([munin(WEAK, '^.*$'), munin(TWIN, '^127\\.0\\.0\\.200$')]);
  const [f] = await run('vigil.munin.open', WEAK, open, true);
  assert.match(
    f!.detail,
    /greeted the scanner with "# munin node at \S+"; "version" answered "munins node on \S+ version: [\d.]+"/,
  );
  assert.match(f!.detail, /"list" answered \d+ plugins/);
  assert.deepEqual(await run('vigil.munin.open', TWIN, twin, true), []);
});

/** `commands`: the line allowing remote commands (6.0's AllowKey, or EnableRemoteCommands=1 it still takes), or ''. */
function zabbix(address: string, server: string, commands: string): Promise<number> {
  return daemon(
    address,
    ZABBIX!,
    (port) => {
      const file = conf('zabbix', (d) =>
        [`PidFile=${d}/pid`, 'LogType=console', `Server=${server}`, 'ServerActive=', 'StartAgents=1']
          .concat([`ListenIP=${address}`, `ListenPort=${port}`, 'Hostname=vigil-test', commands])
          .join('\n'),
      );
      return ['-f', '-c', file];
      // ListenPort must be 1024 to 32767 (a free port is usually above): the agent's own port, on an address of its own.
    },
    { port: 10050 },
  );
}

test('zabbix_agentd with Server=0.0.0.0/0 or 127.0.0.0/8 answers; system.run only where allowed; Server=127.0.0.200 is silent', {
  skip: ZABBIX ? false : 'zabbix_agentd is not installed',
}, async () => {
  const OPEN_ONLY = '127.0.74.43';
  const LEGACY = '127.0.74.46';
  const [run1, open, legacy, twin] = await Promise.all([
    zabbix(WEAK, '0.0.0.0/0', 'AllowKey=system.run[*]'),
    zabbix(OPEN_ONLY, '0.0.0.0/0', ''),
    zabbix(LEGACY, '127.0.0.0/8', 'EnableRemoteCommands=1'),
    zabbix(TWIN, '127.0.0.200', 'AllowKey=system.run[*]'),
  ]);
  for (const [address, port] of [
    [WEAK, run1],
    [OPEN_ONLY, open],
    [LEGACY, legacy],
  ] as const) {
    const [f] = await run('vigil.zabbix.agent-open', address, port);
    assert.match(
      f!.detail,
      /"agent\.version" in the ZBXD protocol, the agent answered "\d+\.\d+\.\d+"; "system\.uname" answered "Linux /,
    );
  }
  const [cmd] = await run('vigil.zabbix.remote-command', WEAK, run1);
  assert.match(cmd!.detail, /"system\.run\[echo (vigil-[0-9a-f]{12})\]" .* answered "\1": it ran the command\.$/);
  assert.equal((await run('vigil.zabbix.remote-command', LEGACY, legacy)).length, 1);
  assert.deepEqual(await run('vigil.zabbix.remote-command', OPEN_ONLY, open), []);
  assert.deepEqual(await run('vigil.zabbix.agent-open', TWIN, twin), []);
  assert.deepEqual(await run('vigil.zabbix.remote-command', TWIN, twin), []);
});

function nrpe(
  address: string,
  allowed: string | null,
  tls: boolean,
  cert?: { cert: string; key: string },
): Promise<number> {
  return daemon(
    address,
    NRPE!,
    (port) => {
      const file = conf('nrpe', (d) =>
        [`pid_file=${d}/pid`, `server_port=${port}`, `server_address=${address}`, 'nrpe_user=nagios']
          .concat(['nrpe_group=nagios', allowed ? `allowed_hosts=${allowed}` : '', 'dont_blame_nrpe=0'])
          .concat(['disable_syslog=1', `log_file=${d}/log`, 'command[check_true]=/bin/true'])
          .concat(cert ? [`ssl_cert_file=${cert.cert}`, `ssl_privatekey_file=${cert.key}`, 'ssl_use_adh=0', ''] : [''])
          .join('\n'),
      );
      return ['-c', file, '-f', ...(tls ? [] : ['-n'])];
      // NRPE's own port: detection cannot name a plain NRPE, and the check's rule knows it by its port.
    },
    { port: 5666 },
  );
}

test('NRPE without allowed_hosts answers _NRPE_CHECK over TLS and in the clear; allowed_hosts=127.0.0.200 does not', {
  skip: NRPE ? false : 'nrpe is not installed',
}, async () => {
  const PLAIN = '127.0.74.43';
  const PLAIN_TWIN = '127.0.74.44';
  const [tls, plain, twin, plainTwin] = await Promise.all([
    nrpe(WEAK, null, true),
    nrpe(PLAIN, null, false),
    nrpe(TWIN, '127.0.0.200', true),
    nrpe(PLAIN_TWIN, '127.0.0.200', false),
  ]);
  const [t] = await run('vigil.nrpe.open', WEAK, tls, true); // named "ssl" by detection
  assert.match(t!.detail, /"_NRPE_CHECK" \(NRPE protocol 2, over TLS \(ADH-[\w-]+\)\) was answered "NRPE v\d/);
  const [p] = await run('vigil.nrpe.open', PLAIN, plain);
  assert.match(p!.detail, /in the clear .* was answered "NRPE v\d/);
  assert.deepEqual(await run('vigil.nrpe.open', TWIN, twin, true), []);
  assert.deepEqual(await run('vigil.nrpe.open', PLAIN_TWIN, plainTwin), []);
});

test('NRPE with a certificate instead of anonymous DH (ssl_use_adh=0) is found on its port too', {
  skip: NRPE ? false : 'nrpe is not installed',
}, async () => {
  const port = await nrpe('127.0.74.45', null, true, certificate(tempDir('nrpe-cert'), { cn: 'nrpe.vigil.test' }));
  const [f] = await run('vigil.nrpe.open', '127.0.74.45', port, true);
  assert.match(f!.detail, /over TLS \((?!ADH)[\w-]+\)\) was answered "NRPE v\d/);
});
