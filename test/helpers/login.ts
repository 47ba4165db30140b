import { VigilClient } from '../../src/client/index.ts';

/** An auth.php reply: HTTP status, Retry-After (when throttled) and body. */
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
  private readonly client: VigilClient;

  constructor(
    baseUrl: string,
    ca: string,
    readonly localAddress = '127.0.0.1',
    maxSockets = 8,
  ) {
    this.client = new VigilClient({ baseUrl, ca, localAddress, maxSockets });
  }

  async post(fields: Record<string, string | undefined>, script = 'auth.php'): Promise<LoginReply> {
    const r = await this.client.post(script, fields);
    return { http: r.http, retryAfter: r.retryAfter, body: r.body };
  }

  /** Opens the connections first, so that a burst measures the throttle, not TLS handshakes. */
  async warm(connections: number): Promise<void> {
    await Promise.all(Array.from({ length: connections }, () => this.post({})));
  }

  close(): void {
    this.client.close();
  }
}
