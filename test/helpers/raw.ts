import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';

/** Where a raw client connects, and from which loopback address. */
export interface Target {
  port: number;
  /** PEM to trust: TLS when set, plain TCP otherwise. */
  ca?: string;
  localAddress?: string;
}

/**
 * A connection with everything the server sent collected until it closed.
 * `closed` settles when the server (or an error) ends it; `reset` says the
 * end was an error (ECONNRESET and the like) rather than an orderly close.
 */
export interface RawConnection {
  socket: Socket | TLSSocket;
  received: () => Buffer;
  closed: Promise<{ data: Buffer; error: string | null }>;
}

function wrap(socket: Socket | TLSSocket): RawConnection {
  const chunks: Buffer[] = [];
  let error: string | null = null;
  socket.on('data', (d: Buffer) => chunks.push(d));
  socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
  // The server's FIN: answer it so that the socket closes on both sides.
  socket.on('end', () => socket.end());
  // Not events.once, which rejects on 'error': an error is part of the outcome here.
  const closed = new Promise<{ data: Buffer; error: string | null }>((res) =>
    socket.once('close', () => res({ data: Buffer.concat(chunks), error })),
  );
  return { socket, received: () => Buffer.concat(chunks), closed };
}

/**
 * Opens a connection and waits until it is usable: connected (TCP) or
 * handshaken (TLS). Rejects when the server closes it before that.
 */
export async function open(t: Target): Promise<RawConnection> {
  const socket = t.ca
    ? // tls.connect hands localAddress to net.connect; its type does not list it.
      tlsConnect({
        host: '127.0.0.1',
        port: t.port,
        ca: t.ca,
        servername: 'localhost',
        ...({ localAddress: t.localAddress } as object),
      })
    : tcpConnect({ host: '127.0.0.1', port: t.port, localAddress: t.localAddress });
  const conn = wrap(socket);
  await new Promise<void>((res, rej) => {
    socket.once(t.ca ? 'secureConnect' : 'connect', () => res());
    void conn.closed.then(({ error }) =>
      rej(new Error(`closed by the server before it was usable (${error ?? 'orderly close'})`)),
    );
  });
  return conn;
}

/** True when the server sends something, false when it closes first (never rejects). */
export function heard(conn: RawConnection): Promise<boolean> {
  return new Promise((res) => {
    conn.socket.once('data', () => res(true));
    void conn.closed.then(() => res(false));
  });
}

/** Opens, sends `bytes` and collects the whole answer until the server closes. */
export async function exchange(t: Target, bytes: Buffer | string): Promise<{ data: Buffer; error: string | null }> {
  const conn = await open(t);
  conn.socket.write(bytes);
  return conn.closed;
}

export interface HttpReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Splits raw bytes into the HTTP/1.1 replies they hold (Content-Length framing only, which is all Vigil sends). */
export function parseReplies(data: Buffer): HttpReply[] {
  const out: HttpReply[] = [];
  let text = data.toString('latin1');
  while (text.length) {
    const end = text.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`incomplete reply head: ${JSON.stringify(text.slice(0, 200))}`);
    const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
    const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1];
    if (!status) throw new Error(`not a status line: ${JSON.stringify(statusLine)}`);
    const headers = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0);
    out.push({
      status: Number(status),
      headers,
      body: Buffer.from(text.slice(end + 4, end + 4 + length), 'latin1').toString('utf8'),
    });
    text = text.slice(end + 4 + length);
  }
  return out;
}

/** A POST head of a form body, with a Content-Length of the caller's choosing. */
export function postHead(path: string, contentLength: number, extra = ''): string {
  return `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${contentLength}\r\n${extra}\r\n`;
}
