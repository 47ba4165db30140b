import { Agent, request } from 'node:https';
import { encodeForm } from '../../src/client/index.ts';

/** An auth.php reply with the headers the typed client does not return. */
export interface LoginReply {
  http: number;
  retryAfter: string | undefined;
  body: any;
}

/**
 * auth.php callers for the throttle tests and the guessing benchmark: one
 * keep-alive connection per caller, from a chosen loopback address (the
 * throttle counts by address; Linux answers for all of 127.0.0.0/8).
 */
export class LoginCaller {
  private readonly agent: Agent;
  private readonly url: URL;

  constructor(baseUrl: string, ca: string, readonly localAddress = '127.0.0.1', maxSockets = 8) {
    this.url = new URL(baseUrl);
    this.agent = new Agent({ keepAlive: true, ca, maxSockets });
  }

  post(fields: Record<string, string | undefined>, script = 'auth.php'): Promise<LoginReply> {
    const body = encodeForm(fields);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: this.url.hostname,
          port: this.url.port,
          method: 'POST',
          path: `/api/${script}`,
          agent: this.agent,
          localAddress: this.localAddress,
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: any = text;
            try {
              parsed = JSON.parse(text);
            } catch {}
            resolve({ http: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body: parsed });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Opens the connections first, so that a burst measures the throttle, not TLS handshakes. */
  async warm(connections: number): Promise<void> {
    await Promise.all(Array.from({ length: connections }, () => this.post({})));
  }

  close(): void {
    this.agent.destroy();
  }
}
