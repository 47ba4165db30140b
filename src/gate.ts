/**
 * A first-come-first-served gate: at most `limit` jobs run at once, the
 * rest wait their turn. Shared by the password checks of unknown
 * addresses (src/accounts/sessions.ts) and the NOTIFYs waiting for their
 * answers (src/dns/server/notify.ts, per process and per peer).
 */
export class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((res) => this.waiting.push(res));
    else this.active++;
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter; only an empty line frees it.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
