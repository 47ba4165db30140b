/**
 * Message brokers: NATS (INFO greeting), AMQP (0-9-1 Connection.Start, or
 * the 1.0 header a 1.0-only broker answers with, §4.2.2 of 0-9-1 and AMQP
 * 1.0 §2.2) and STOMP (an ERROR or CONNECTED frame). nmap's database names
 * AMQP only as "Advanced Message Queue Protocol" with no product, has no
 * line for NATS, and sends its STOMP probe (HELP4STOMP, rarity 8) only on
 * 61613 after every other probe: RabbitMQ's STOMP port stayed "unknown"
 * through the 12 s port budget.
 */
import { AMQP_HEADER, parseStart } from '../../proto/amqp.ts';
import { parseInfo } from '../../proto/nats.ts';
import { frameDone, parseFrame } from '../../proto/stomp.ts';
import type { Family } from './family.ts';

export const nats: Family = {
  id: 'nats',
  async banner(greeting, s) {
    const info = parseInfo(greeting);
    if (!info) return false;
    Object.assign(s, { name: 'nats', product: 'NATS', version: info.version });
    s.extra.auth = info.authRequired ? 'required' : 'none';
    return true;
  },
};

export const amqp: Family = {
  id: 'amqp',
  ports: [5672],
  async probe(conv, s) {
    const r = await conv.ask(
      AMQP_HEADER,
      1500,
      (b) => b.length >= 8 && (b[0] !== 1 || b.length >= 7 + b.readUInt32BE(3)),
    );
    // A broker speaking another version answers with its own header and closes (0-9-1 §4.2.2).
    const header = /^AMQP([\0-\x03])([\0-\x09])([\0-\x09])([\0-\x09])/.exec(r.subarray(0, 8).toString('latin1'));
    const start = header ? null : parseStart(r);
    if (!header && !start) return false;
    s.name = 'amqp';
    if (header) s.extra.amqp = `${r[5]}.${r[6]}.${r[7]}${r[4] === 3 ? ' (SASL)' : ''}`;
    if (start) {
      Object.assign(s, { product: start.properties.product ?? null, version: start.properties.version ?? null });
      s.extra.amqp = start.version;
      s.extra.mechanisms = start.mechanisms.join(' ');
    }
    return true;
  },
};

export const stomp: Family = {
  id: 'stomp',
  ports: [61613, 6163],
  async probe(conv, s) {
    // nmap's HELP4STOMP: an unknown command, answered ERROR by every STOMP server; it logs no one in.
    const f = parseFrame(await conv.ask('HELP\n\n\0', 1500, frameDone));
    if (!f || (f.command !== 'ERROR' && f.command !== 'CONNECTED')) return false;
    s.name = 'stomp';
    if (/activemq/i.test(f.body)) s.product = 'Apache ActiveMQ';
    if (f.headers.version) s.extra.stomp = f.headers.version;
    return true;
  },
};
