/** DNS over TCP: a CHAOS TXT version.bind query (answers even when refused name the service). */
import dnsPacket from 'dns-packet';
import type { Family } from './family.ts';
import { WIRE } from '../../../dns/rr/wire-names.ts';

export const dns: Family = {
  id: 'dns',
  ports: [53, 5353],
  async probe(conv, s) {
    const query = dnsPacket.streamEncode({
      type: 'query',
      id: 0x5647,
      flags: dnsPacket.RECURSION_DESIRED,
      questions: [{ type: WIRE.TXT, class: 'CH', name: 'version.bind' }],
    });
    const r = await conv.ask(query, 1500, (b) => b.length >= 2 && b.length >= b.readUInt16BE(0) + 2);
    let reply;
    try {
      reply = dnsPacket.streamDecode(r);
    } catch {
      return false;
    }
    if (reply.id !== 0x5647 || reply.type !== 'response') return false;
    s.name = 'domain';
    const txt = reply.answers?.find((a) => a.type === WIRE.TXT);
    const data = txt && 'data' in txt ? txt.data : null;
    const text = (Array.isArray(data) ? data : data ? [data] : [])
      .map((d) => (Buffer.isBuffer(d) ? d.toString('latin1') : String(d)))
      .join('')
      .slice(0, 200);
    if (text) {
      s.extra.versionBind = text;
      const m = /^(?:BIND\s*)?(\d+\.\d+\.\d+)/i.exec(text) ?? null;
      if (m) Object.assign(s, { product: 'ISC BIND', version: m[1]! });
      else if (/^dnsmasq-([\w.]+)/i.test(text))
        Object.assign(s, { product: 'dnsmasq', version: /^dnsmasq-([\w.]+)/i.exec(text)![1]! });
      else if (/^unbound ([\w.]+)/i.test(text))
        Object.assign(s, { product: 'Unbound', version: /^unbound ([\w.]+)/i.exec(text)![1]! });
      else if (/^PowerDNS/i.test(text))
        Object.assign(s, { product: 'PowerDNS', version: /([\d.]+\d)/.exec(text)?.[1] ?? null });
    }
    s.extra.rcode = String((reply.flags ?? 0) & 15);
    return true;
  },
};
