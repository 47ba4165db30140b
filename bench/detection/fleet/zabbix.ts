/**
 * Debian zabbix_agentd (6.0), one instance per address (ListenIP), in the foreground. Weak:
 * Server=0.0.0.0/0 (the copy-pasted "any"), once plain and once with AllowKey=system.run[*] (remote
 * commands); Server=127.0.0.0/8 (a whole network) with EnableRemoteCommands=1. Twin: Server=127.0.0.200 with the same AllowKey: the agent closes the scanner's
 * connection without an answer.
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { addr, none, type Daemon } from './kit.ts';

const K = 42;
const A = (n: number) => addr(K, n);
/** Address, Server=, and the remote-commands line (6.0's AllowKey, or the deprecated spelling it still takes). */
const CONFIGS: [number, string, string][] = [
  [1, '0.0.0.0/0', ''],
  [2, '0.0.0.0/0', 'AllowKey=system.run[*]'],
  // A whole network as "the server" (here 127/8, which holds the scanner), and the pre-5.0 spelling.
  [3, '127.0.0.0/8', 'EnableRemoteCommands=1'],
  [100, '127.0.0.200', 'AllowKey=system.run[*]'],
];

export const ZABBIX: Daemon = {
  kind: 'zabbix-agent',
  binaries: ['zabbix_agentd'],
  ports: { tcp: [10050], udp: [] },
  weaknesses: [
    {
      id: 'zabbix-agent-open',
      family: 'auth',
      label: 'Zabbix agent answers anyone (Server=0.0.0.0/0)',
      daemon: 'zabbix_agentd',
      address: A(1),
      port: 10050,
      proto: 'tcp',
      vigil: { id: /^vigil\.zabbix\.agent-open$/ },
      // No nmap script speaks the agent protocol (-sV names the port from nmap-services only).
      nmap: none,
    },
    {
      id: 'zabbix-system-run',
      family: 'auth',
      label: 'Zabbix agent runs commands for anyone (Server=0.0.0.0/0, AllowKey=system.run[*])',
      daemon: 'zabbix_agentd',
      address: A(2),
      port: 10050,
      proto: 'tcp',
      vigil: { id: /^vigil\.zabbix\.remote-command$/ },
      nmap: none,
    },
    {
      id: 'zabbix-agent-open-network',
      family: 'auth',
      label: 'Zabbix agent answers a whole network (Server=127.0.0.0/8)',
      daemon: 'zabbix_agentd',
      address: A(3),
      port: 10050,
      proto: 'tcp',
      vigil: { id: /^vigil\.zabbix\.agent-open$/ },
      nmap: none,
    },
    {
      id: 'zabbix-enable-remote-commands',
      family: 'auth',
      label: 'Zabbix agent runs commands (EnableRemoteCommands=1, the pre-5.0 spelling)',
      daemon: 'zabbix_agentd',
      address: A(3),
      port: 10050,
      proto: 'tcp',
      vigil: { id: /^vigil\.zabbix\.remote-command$/ },
      nmap: none,
    },
  ],
  twins: [{ address: A(100), note: 'Server=127.0.0.200 (the Zabbix server only), AllowKey=system.run[*]' }],
  async start(ctx) {
    for (const [n, server, commands] of CONFIGS) {
      const dir = ctx.dir(A(n));
      chmodSync(dir, 0o777); // the agent drops to the zabbix user before it writes its pid file
      const conf = ctx.write(
        join(dir, 'zabbix_agentd.conf'),
        `PidFile=${dir}/agent.pid\nLogType=console\nServer=${server}\nServerActive=\nStartAgents=2\nListenIP=${A(n)}\nListenPort=10050\nHostname=vigil-bench\n${commands}\n`,
      );
      const child = ctx.spawn(`zabbix-${A(n)}`, 'zabbix_agentd', ['-f', '-c', conf]);
      await ctx.waitTcp(A(n), 10050, child);
    }
  },
};
