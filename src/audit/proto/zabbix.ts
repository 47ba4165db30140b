/**
 * Zabbix agent passive checks (zabbix_agentd and zabbix_agent2, port 10050): the "ZBXD" header
 * protocol (https://www.zabbix.com/documentation/current/en/manual/appendix/protocols/header_datalen):
 * "ZBXD", flags 0x01, a 4-byte little-endian data length, 4 reserved bytes, then the item key; the
 * answer has the same header and the value, or "ZBX_NOTSUPPORTED\0reason". An agent whose `Server`
 * list does not hold the client's address closes the connection without a word (measured: Debian's
 * zabbix_agentd 6.0.14 logs "connection from … rejected" and closes).
 */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

const HEAD = Buffer.from('ZBXD\x01', 'latin1');

export function zabbixRequest(key: string): Buffer {
  const body = Buffer.from(key, 'utf8');
  const h = Buffer.alloc(13);
  HEAD.copy(h);
  h.writeUInt32LE(body.length, 5);
  return Buffer.concat([h, body]);
}

/** The value in a complete ZBXD reply; undefined until the reply is whole. */
function value(b: Buffer): string | undefined {
  if (b.length < 13 || !b.subarray(0, 5).equals(HEAD)) return undefined;
  const len = b.readUInt32LE(5);
  if (b.length < 13 + len) return undefined;
  return b.subarray(13, 13 + len).toString('utf8');
}

export interface ZabbixAnswer {
  key: string;
  /** The value, or null for ZBX_NOTSUPPORTED (then `reason`). */
  value: string | null;
  reason?: string;
}

/** One item key on a fresh connection (the agent closes after each answer); null on silence. */
function getOnce(net: Net, port: number, key: string): Promise<ZabbixAnswer | null> {
  return talk(net, port, async (c) => {
    const v = value(await c.ask(zabbixRequest(key), 3000, (b) => value(b) !== undefined));
    if (v === undefined) return null;
    if (v.startsWith('ZBX_NOTSUPPORTED')) return { key, value: null, reason: v.slice(17).replace(/\0/g, '') };
    return { key, value: v };
  });
}

/**
 * The item, asked twice when the first connection got nothing: each of the agent's StartAgents
 * processes serves one connection at a time, and a busy agent may leave a connection waiting past the
 * read (seen once in the bench under load: system.uname unanswered right after agent.version, not
 * reproduced alone). A refusing agent closes at once, so the second try costs it nothing.
 */
export async function zabbixGet(net: Net, port: number, key: string): Promise<ZabbixAnswer | null> {
  return (await getOnce(net, port, key)) ?? getOnce(net, port, key);
}
