/**
 * MQTT (OASIS MQTT 3.1.1, §3.1 CONNECT and §3.2 CONNACK): a CONNECT with
 * no user name and no password, and the broker's return code. Nothing is
 * published or subscribed; the client sends DISCONNECT (§3.14) after.
 */
import { randomBytes } from 'node:crypto';
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

const str = (s: string) => {
  const b = Buffer.from(s, 'utf8');
  return Buffer.concat([Buffer.from([b.length >> 8, b.length & 255]), b]);
};

/** CONNECT, protocol level 4 (3.1.1), clean session, keep-alive 10 s, no will, no credentials. */
export function mqttConnectPacket(clientId: string): Buffer {
  const body = Buffer.concat([str('MQTT'), Buffer.from([4, 0x02, 0, 10]), str(clientId)]);
  return Buffer.concat([Buffer.from([0x10, body.length]), body]);
}

/** CONNACK return codes (§3.2.2.3). */
export const CONNACK: Record<number, string> = {
  0: 'Connection Accepted',
  1: 'unacceptable protocol version',
  2: 'identifier rejected',
  3: 'server unavailable',
  4: 'bad user name or password',
  5: 'not authorized',
};

/** The CONNACK return code to an anonymous CONNECT, or null (not MQTT, closed, timeout). */
export function mqttAnonymousConnect(net: Net, port: number): Promise<number | null> {
  return talk(net, port, async (c) => {
    const r = await c.ask(mqttConnectPacket(`vigil-${randomBytes(4).toString('hex')}`), 3000, (b) => b.length >= 4);
    // CONNACK: fixed header 0x20, remaining length 2, acknowledge flags (bits 7-1 reserved), return code.
    if (r.length < 4 || r[0] !== 0x20 || r[1] !== 2 || (r[2]! & 0xfe) !== 0) return null;
    if (r[3] === 0) c.send(Buffer.from([0xe0, 0])); // DISCONNECT
    return r[3]!;
  });
}
