/** Listening and closing helpers shared by the bench's target servers. */
import { once } from 'node:events';
import type { Server as NetServer, Socket } from 'node:net';
import type { Socket as UdpSocket } from 'node:dgram';

export interface Running {
  readonly label: string;
  close(): Promise<void>;
}

/** Listens and records every connection, so that close() can cut them (scanners leave some open). */
export async function listen(label: string, server: NetServer, host: string, port: number): Promise<Running> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
  });
  server.listen(port, host);
  await once(server, 'listening'); // rejects on 'error' (EADDRINUSE …)
  server.on('error', () => {});
  return {
    label,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        sockets.forEach((s) => s.destroy());
      }),
  };
}

export async function bindUdp(label: string, socket: UdpSocket, host: string, port: number): Promise<Running> {
  socket.bind(port, host);
  await once(socket, 'listening');
  socket.on('error', () => {});
  return { label, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}

/** Splits a TCP stream into CRLF/LF lines for line protocols (FTP, Telnet, memcached). */
export function onLines(socket: Socket, handle: (line: string) => void): void {
  let buf = '';
  socket.on('data', (d) => {
    buf += d.toString('latin1');
    if (buf.length > 65536) return void socket.destroy();
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i).replace(/\r$/, '');
      buf = buf.slice(i + 1);
      handle(line);
    }
  });
}
