import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import { isIPv6 } from 'node:net';
import dnsPacket, { type Answer } from 'dns-packet';
import type { Peer } from '../peers.ts';
import { WIRE } from '../rr/wire-names.ts';

const id = () => Math.floor(Math.random() * 65536);

/** The SOA serial a master serves for the zone (UDP), or null. */
export function querySoaSerial(peer: Peer, zone: string, timeoutMs = 2000): Promise<number | null> {
  const qid = id();
  const message = dnsPacket.encode({
    id: qid,
    type: 'query',
    questions: [{ type: WIRE.SOA, name: zone, class: 'IN' }],
  });
  return new Promise((resolve) => {
    const socket = createSocket(isIPv6(peer.address) ? 'udp6' : 'udp4');
    const finish = (serial: number | null) => {
      clearTimeout(timer);
      socket.close();
      resolve(serial);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    socket.on('message', (msg) => {
      try {
        const reply = dnsPacket.decode(msg);
        if (reply.id !== qid) return;
        const soa = reply.answers?.find((a) => a.type === WIRE.SOA) as { data: { serial: number } } | undefined;
        finish(soa ? soa.data.serial : null);
      } catch {
        finish(null);
      }
    });
    socket.on('error', () => finish(null));
    socket.send(message, peer.port, peer.address);
  });
}

/** Bounds on one transfer: a tenant names the master, so its size is the tenant's choice. */
export interface TransferCaps {
  maxRecords: number;
  maxBytes: number;
}

/**
 * A full zone transfer (AXFR over TCP, RFC 5936): every record, the SOA first.
 * Abandoned as soon as it passes `caps` (records, or bytes received), so a
 * master cannot make Vigil hold a zone it would refuse to store anyway.
 */
export function axfr(peer: Peer, zone: string, caps: TransferCaps, timeoutMs = 30_000): Promise<Answer[]> {
  const qid = id();
  return new Promise((resolve, reject) => {
    const records: Answer[] = [];
    let soas = 0;
    let received = 0;
    let buf = Buffer.alloc(0);
    const socket = connect({ host: peer.address, port: peer.port }, () =>
      socket.write(
        dnsPacket.streamEncode({ id: qid, type: 'query', questions: [{ type: 'AXFR', name: zone, class: 'IN' }] }),
      ),
    );
    const fail = (why: string) => {
      socket.destroy();
      reject(new Error(`AXFR of ${zone} from ${peer.address}:${peer.port}: ${why}`));
    };
    socket.setTimeout(timeoutMs, () => fail('timed out'));
    socket.on('error', (err) => fail(err.message));
    socket.on('close', () => soas < 2 && fail('connection closed early'));
    socket.on('data', (chunk) => {
      received += (chunk as Buffer).length;
      if (received > caps.maxBytes) return fail(`larger than ${caps.maxBytes} bytes`);
      buf = Buffer.concat([buf, chunk as Buffer]);
      while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        let msg: { id: number; rcode?: string; answers?: Answer[] };
        try {
          msg = dnsPacket.decode(buf.subarray(2, 2 + buf.readUInt16BE(0))) as typeof msg;
        } catch {
          // A malformed message from a master fails the transfer, never the process.
          return fail('malformed message');
        }
        buf = buf.subarray(2 + buf.readUInt16BE(0));
        if (msg.id !== qid) return fail('reply with another id');
        if (msg.rcode && msg.rcode !== 'NOERROR') return fail(msg.rcode);
        for (const a of msg.answers ?? []) {
          if (a.type === WIRE.SOA && ++soas === 2) {
            socket.end();
            return resolve(records);
          }
          records.push(a);
          if (records.length > caps.maxRecords) return fail(`more than ${caps.maxRecords} records`);
        }
      }
    });
  });
}
