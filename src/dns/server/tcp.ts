import type { Socket } from 'node:net';

/** Limits on DNS over TCP; the field names are Config's, so a Config can be passed as is. */
export interface TcpLimits {
  /** Open TCP connections per client address (an IPv6 client is its /64). */
  maxConnectionsPerIp?: number;
  /** Total life of one connection, however busy. */
  dnsTcpLifetimeMs?: number;
  /** Wait for the next complete query. */
  dnsTcpIdleMs?: number;
}

/**
 * Longest wait for the next complete query on a TCP connection (RFC 7766
 * 6.2.3 asks for an idle timeout, suggests seconds). It restarts on each
 * complete query, not on each byte: restarted per byte, one byte every
 * 5 s held a connection for ever (issue 12).
 */
export const TCP_IDLE_MS = 10_000;
/**
 * Replies queued to a client that is not reading them before we stop reading its queries (pipelined AXFRs
 * would grow it without end).
 */
const TCP_MAX_QUEUED = 1024 * 1024;
/** The DNS header: a frame shorter than this is no query (RFC 1035 4.1.1). */
const HEADER = 12;

/** What one connection needs of the name server. */
export interface TcpHandler {
  /** The replies to one message (several for a zone transfer). */
  answer(message: Buffer, peer: string): Buffer[];
  /** A query was answered: the connection goes to the back of the line to shed (connection-cap.ts). */
  served?(): void;
}

/**
 * DNS over TCP: 2-byte length prefix per message (RFC 1035 4.2.2).
 * Three limits bound what one connection holds: an idle timer that only
 * a complete query (or the client reading our replies) restarts, a total
 * lifetime that nothing restarts, and a cap on replies queued unread.
 *
 * "A complete query" is a whole frame holding at least a DNS header: an
 * empty frame (a zero length) or a few stray bytes restarted the timer
 * until issue 28, so a client sending `00 00` every few seconds kept a
 * connection for its whole 60 s lifetime. They are skipped now, unanswered
 * (answerMessage has nothing to say to them either).
 */
export function serveDnsTcp(socket: Socket, limits: Required<TcpLimits>, handler: TcpHandler): void {
  const lifetime = setTimeout(() => socket.destroy(), limits.dnsTcpLifetimeMs);
  let idle = setTimeout(() => socket.destroy(), limits.dnsTcpIdleMs);
  const active = () => {
    clearTimeout(idle);
    idle = setTimeout(() => socket.destroy(), limits.dnsTcpIdleMs);
  };
  socket.on('close', () => {
    clearTimeout(lifetime);
    clearTimeout(idle);
  });
  socket.on('error', () => socket.destroy());
  // A client draining a long transfer is busy, not idle.
  socket.on('drain', () => {
    active();
    socket.resume();
  });
  let pending = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    pending = Buffer.concat([pending, chunk as Buffer]);
    while (pending.length >= 2) {
      const size = pending.readUInt16BE(0);
      if (pending.length < 2 + size) break;
      const message = pending.subarray(2, 2 + size);
      pending = pending.subarray(2 + size);
      if (size < HEADER) continue;
      active();
      for (const out of handler.answer(message, socket.remoteAddress ?? '')) {
        const len = Buffer.alloc(2);
        len.writeUInt16BE(out.length);
        socket.write(Buffer.concat([len, out]));
      }
      handler.served?.();
    }
    if (socket.writableLength > TCP_MAX_QUEUED) socket.pause();
  });
}
