/**
 * Java-world services nmap's database names only at its higher rarities or
 * on a few ports (its ajp probe is rarity 8, the "stats" probe that names
 * ZooKeeper rarity 8, JavaRMI 7 on a port list), so that an AJP connector,
 * a JMX or RMI registry port off its list, or ZooKeeper stayed "unknown":
 * - ajp13: AJP/1.3 CPing answered by CPong (nmap's ajp probe);
 * - java-rmi: the JRMP header answered by a ProtocolAck (nmap's JavaRMI probe);
 * - zookeeper: the four-letter word `srvr`, run by every ZooKeeper since
 *   3.5.3 by default ("Zookeeper version: …"), or refused by name when a
 *   whitelist leaves it out.
 */
import { CPING, isCpong } from '../../proto/ajp.ts';
import { JRMI_HEADER, isProtocolAck } from '../../proto/java-rmi.ts';
import { NOT_ALLOWED } from '../../proto/zookeeper.ts';
import type { Family } from './family.ts';

export const ajp: Family = {
  id: 'ajp13',
  ports: [8009],
  async probe(conv, s) {
    if (!isCpong(await conv.ask(CPING, 1500, (b) => b.length >= 5))) return false;
    Object.assign(s, { name: 'ajp13', product: 'Apache Jserv' });
    s.extra.ajp = 'CPong';
    return true;
  },
};

export const javaRmi: Family = {
  id: 'java-rmi',
  ports: [1099, 1098, 9010, 9999],
  async probe(conv, s) {
    if (!isProtocolAck(await conv.ask(JRMI_HEADER, 1500, (b) => b.length >= 3 && b.length >= 7 + b.readUInt16BE(1))))
      return false;
    Object.assign(s, { name: 'java-rmi', product: 'Java RMI' });
    return true;
  },
};

export const zookeeper: Family = {
  id: 'zookeeper',
  ports: [2181, 2182],
  async probe(conv, s) {
    const r = (await conv.ask('srvr', 1500, (b) => /\n[\s\S]*\n/.test(b.toString('latin1')))).toString('latin1');
    const v = /^Zookeeper version: ([\w.-]+)/.exec(r);
    if (!v && !/^srvr is not executed because/.test(r) && !NOT_ALLOWED.test(r.slice(0, 80))) return false;
    Object.assign(s, { name: 'zookeeper', product: 'Apache ZooKeeper', version: v ? v[1]! : null });
    if (/^Mode: (\w+)/m.test(r)) s.extra.mode = /^Mode: (\w+)/m.exec(r)![1]!;
    return true;
  },
};
