import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Server, Socket } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { TRANSPORT_CODES, type TransportCode } from '../errors.ts';
import { capConnections } from '../net/connection-cap.ts';
import { failure } from './reply.ts';

/** What the HTTP listeners take from the configuration. */
export type TransportLimits = Pick<Config, 'requestTimeoutMs' | 'maxConnectionsPerIp'>;

/**
 * Node's default (16 KiB), stated so that it is a decision: the API's
 * requests carry a handful of short headers; everything is in the body.
 */
export const MAX_HEADER_BYTES = 16 * 1024;
/**
 * Idle time between requests on a kept-alive connection. Fastify's default
 * is 72 s (meant for a load balancer in front); Vigil faces clients
 * directly, and every idle connection holds a descriptor and one of its
 * address's slots. Node's own default.
 */
export const KEEP_ALIVE_MS = 5_000;

/**
 * Node server options for one request budget: the TLS handshake, the
 * headers and the body must each arrive within `requestTimeoutMs` (headers
 * and body together too). Node checks its request deadlines only every
 * `connectionsCheckingInterval` (30 s by default, so a 1 s timeout could
 * take 31 s); a quarter of the budget, at most 1 s, keeps them close.
 */
export function serverOptions(limits: TransportLimits) {
  const budget = limits.requestTimeoutMs;
  return {
    requestTimeout: budget,
    headersTimeout: budget,
    handshakeTimeout: budget,
    keepAliveTimeout: KEEP_ALIVE_MS,
    maxHeaderSize: MAX_HEADER_BYTES,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(budget / 4))),
  };
}

/** Node's clientError codes -> Vigil's transport codes. */
function codeFor(err: NodeJS.ErrnoException): TransportCode {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'requestTimeout';
  if (err.code === 'HPE_HEADER_OVERFLOW') return 'headersTooLarge';
  return 'malformedRequest';
}

const answered = new WeakSet<Socket>();

/**
 * Fastify's `clientErrorHandler`: requests Node's parser rejects (bad
 * syntax, a NUL in the path, headers over MAX_HEADER_BYTES, a request that
 * missed its deadline) get the API's JSON error shape instead of Node's
 * bare 400/408/431, and then the connection is closed. Three details:
 *
 * - Node calls this again for every chunk read after the error; only the
 *   first call answers.
 * - A request parsed before the error (a Content-Length shorter than the
 *   body: the rest reads as the next request) is answered first, in order,
 *   rather than cut off by our reply.
 * - The rest of the client's bytes are read and dropped until the client
 *   closes or `lingerMs` passes. Closing with unread bytes makes the kernel
 *   send a reset, which destroys our reply in the client's buffer: before
 *   this, a 60 KB header got a reset instead of an answer.
 */
export function clientErrorHandler(logger: Logger, lingerMs: number) {
  return (err: NodeJS.ErrnoException, socket: Socket) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    // The client went away (a reset, or its end of the stream in mid-request): nobody to answer.
    if (err.code === 'ECONNRESET' || err.code === 'HPE_INVALID_EOF_STATE' || socket.destroyed || !socket.writable) {
      socket.destroy();
      return;
    }
    const code = codeFor(err);
    const http = TRANSPORT_CODES[code];
    logger.info({ script: null, http, error: code, client: socket.remoteAddress, reason: err.code }, 'api');
    // However the client behaves from here, the connection ends.
    setTimeout(() => socket.destroy(), lingerMs).unref();
    const reply = () => {
      const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
      if (inFlight && !inFlight.writableFinished) {
        if (inFlight.req.complete) {
          // An earlier, whole request: its reply goes first. After 'finish' Node may
          // hand the socket to the next queued response: look again then.
          inFlight.once('finish', () => setImmediate(reply));
          return;
        }
        // The failed request is the one in flight (its body timed out): answered
        // here, as Node's own handler does, unless its reply has begun.
        if (inFlight.headersSent) {
          socket.destroy();
          return;
        }
      }
      if (socket.destroyed || !socket.writable) return;
      const body = JSON.stringify(failure(code));
      socket.end(
        `HTTP/1.1 ${http} ${STATUS_CODES[http]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    };
    reply();
  };
}

/** Per-address and total connection caps on an HTTP(S) listener. */
export function capHttpConnections(server: Server, limits: TransportLimits, logger: Logger, name: string): void {
  capConnections(server, { perAddress: limits.maxConnectionsPerIp, logger, name });
}
