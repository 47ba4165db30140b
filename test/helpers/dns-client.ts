import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import dnsPacket, { type Packet } from 'dns-packet';

/** A decoded reply; records loosely typed, as tests read their data directly. */
export type Reply = Omit<Packet, 'answers' | 'authorities' | 'additionals'> & {
  answers?: any[];
  authorities?: any[];
  additionals?: any[];
  rcode?: string;
  flag_aa?: boolean;
  flag_tc?: boolean;
};

let nextId = 1;

export function queryPacket(name: string, type: string, opts: { edns?: number } = {}): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id: nextId++ & 0xffff,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ type: type as any, name, class: 'IN' }],
    additionals: opts.edns ? [{ type: 'OPT', name: '.', udpPayloadSize: opts.edns } as any] : [],
  });
}

/** One UDP exchange with a loopback name server; raw bytes in, raw reply out. */
export function udpRaw(port: number, message: Buffer, timeoutMs = 2000): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const s = createSocket('udp4');
    const timer = setTimeout(() => {
      s.close();
      resolve(null);
    }, timeoutMs);
    s.on('message', (msg) => {
      clearTimeout(timer);
      s.close();
      resolve(msg);
    });
    s.send(message, port, '127.0.0.1');
  });
}

export async function udpQuery(port: number, name: string, type: string, opts: { edns?: number } = {}): Promise<Reply> {
  const query = queryPacket(name, type, opts);
  // Three tries, as a stub resolver makes: UDP may drop a packet when the machine is loaded
  // (seen once after the 3,000-packet fuzz, with the suite running two files at once).
  let raw: Buffer | null = null;
  for (let i = 0; i < 3 && !raw; i++) raw = await udpRaw(port, query);
  if (!raw) throw new Error(`no UDP answer for ${name} ${type}`);
  const reply = dnsPacket.decode(raw) as Reply;
  // Every reply must carry its query's ID (cached replies included).
  if (reply.id !== query.readUInt16BE(0)) throw new Error(`reply ID ${reply.id} for query ${query.readUInt16BE(0)}`);
  return reply;
}

export function tcpQuery(port: number, name: string, type: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(dnsPacket.streamEncode({ ...dnsPacket.decode(queryPacket(name, type)) })),
    );
    let buf = Buffer.alloc(0);
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d as Buffer]);
      if (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        socket.end();
        resolve(dnsPacket.decode(buf.subarray(2, 2 + buf.readUInt16BE(0))) as Reply);
      }
    });
    socket.on('error', reject);
  });
}
