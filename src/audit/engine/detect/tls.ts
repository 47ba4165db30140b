/**
 * TLS: handshake (certificate facts via proto/tls.ts), then what runs
 * inside: a greeting (smtps, imaps, pop3s, ftps …) or HTTP (https).
 */
import type { TLSSocket } from 'node:tls';
import { describeSessionSafe, OFFER_ALL } from '../../proto/tls.ts';
import type { Net, Service } from '../types.ts';
import { httpExchange } from './http.ts';
import { Conv, printable } from '../../proto/conv.ts';
import type { Family } from './family.ts';

export async function tlsProbe(
  net: Net,
  s: Service,
  greetingFamilies: readonly Family[],
  timeoutMs: number,
  greetMs: number,
): Promise<boolean> {
  let socket: TLSSocket;
  try {
    socket = await net.connectTls(s.port, { timeoutMs, ...OFFER_ALL });
  } catch {
    return false;
  }
  const conv = new Conv(socket);
  try {
    s.tls = describeSessionSafe(socket);
    s.name = 'ssl';
    const greeting = await conv.read(greetMs);
    if (greeting.length) {
      s.banner = printable(greeting);
      for (const f of greetingFamilies) {
        if (await f.banner!(greeting, s, conv).catch(() => false)) {
          s.name = s.name === 'ssl' || s.name === 'unknown' ? 'ssl' : `${s.name}s`;
          return true;
        }
      }
      return true;
    }
    const host = net.address.includes(':') ? `[${net.address}]:${s.port}` : `${net.address}:${s.port}`;
    if (await httpExchange(conv, s, host, timeoutMs)) s.name = 'https';
    return true;
  } finally {
    conv.close();
  }
}

export const tls: Family = { id: 'tls', ports: [443, 465, 636, 853, 990, 993, 995, 8443] };
