import { randomBytes } from 'node:crypto';
import { zabbixGet } from '../../proto/zabbix.ts';
import { defineCheck } from '../kit.ts';

/**
 * Remote commands through a Zabbix agent (EnableRemoteCommands=1 before 5.0, AllowKey=system.run[*]
 * since): the item system.run[echo TOKEN] with a random token, and only the token coming back proves
 * that a command ran. It runs a command on the target, harmless as it is: intrusive.
 */
export default defineCheck({
  id: 'vigil.zabbix.remote-command',
  shortid: 'ZABBIX-SYSTEM-RUN',
  title: 'Zabbix agent runs commands for anyone (system.run)',
  family: 'General',
  categories: ['intrusive', 'exploit', 'auth'],
  risk: 'high',
  type: 'HOLE',
  description:
    "The Zabbix agent runs shell commands sent by the scanner (the item system.run): anyone who reaches it can run any command as the agent's user.",
  solution:
    'Remove AllowKey=system.run[*] (EnableRemoteCommands=1 on agents before 5.0) or allow only the exact commands needed, restrict Server= to the Zabbix server and proxies, and require TLS with a PSK or certificates.',
  references: [
    'https://www.zabbix.com/documentation/current/en/manual/config/items/restrict_checks',
    'https://www.zabbix.com/documentation/current/en/manual/config/items/itemtypes/zabbix_agent#system.run',
  ],
  ports: { services: ['zabbix-agent', 'zabbix'], ports: [10050] },
  run: async ({ net, port }) => {
    const token = `vigil-${randomBytes(6).toString('hex')}`;
    const key = `system.run[echo ${token}]`;
    const r = await zabbixGet(net, port, key);
    if (r?.value?.trim() !== token) return null;
    return `Asked the item "${key}" in the ZBXD protocol, the agent answered "${token}": it ran the command.`;
  },
});
