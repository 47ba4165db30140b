import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { TRANSPORT_CODES, type TransportCode } from '../errors.ts';
import { failure } from './reply.ts';

// The slow-client limits are shared with the forwarder and the metrics listener: src/net/http-limits.ts.
export {
  capHttpConnections,
  KEEP_ALIVE_MS,
  MAX_HEADER_BYTES,
  serverOptions,
  type TransportLimits,
} from '../net/http-limits.ts';

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
