import { zabbixGet } from '../../proto/zabbix.ts';
import { shown } from '../../proto/talk.ts';
import { defineCheck } from '../kit.ts';

/**
 * A Zabbix agent that answers passive checks from the scanner's address. The agent closes the
 * connection on any client its `Server` list leaves out, so a value in the ZBXD answer proves the
 * scanner is allowed; `Server=0.0.0.0/0` (copied from examples) is the usual cause.
 */
export default defineCheck({
  id: 'vigil.zabbix.agent-open',
  shortid: 'ZABBIX-AGENT-OPEN',
  title: 'Zabbix agent answers anyone',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'medium',
  type: 'NOTE',
  description:
    "The Zabbix agent answers item requests from the scanner's address: anyone who reaches it can read the host's name, kernel, processes, users, listening ports, and the contents of files the agent's user can read (vfs.file.contents), and, where remote commands are allowed, run commands.",
  solution:
    "List only the Zabbix server and proxies in the agent's Server= (never 0.0.0.0/0 or ::/0), bind ListenIP to the management interface, firewall port 10050, and use TLS with a PSK or certificates (TLSAccept=psk or cert).",
  references: ['https://www.zabbix.com/documentation/current/en/manual/appendix/config/zabbix_agentd'],
  ports: { services: ['zabbix-agent', 'zabbix'], ports: [10050] },
  run: async ({ net, port }) => {
    const version = await zabbixGet(net, port, 'agent.version');
    if (!version?.value) return null;
    const uname = await zabbixGet(net, port, 'system.uname');
    const more = uname?.value ? `; "system.uname" answered "${shown(uname.value, 120)}"` : '';
    return `Asked the item "agent.version" in the ZBXD protocol, the agent answered "${shown(version.value, 40)}"${more}.`;
  },
});
