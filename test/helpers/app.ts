import { ManualClock } from '../../src/clock.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { type App, startApp } from '../../src/app.ts';
import { buildConfig, type Config } from '../../src/config.ts';
import { NO_RESOLVER } from './server.ts';
import { VigilClient } from '../../src/client/index.ts';
import { type Logger, pino } from 'pino';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testDb } from './pgdb.ts';
import { freePort, tempDir } from './server.ts';

/** The whole service in this process, on a clock the test moves. */
export interface TestApp {
  app: App;
  clock: ManualClock;
  url: string;
  /** PEM of the app's certificate, to trust it. */
  ca: string;
  client(localAddress?: string): VigilClient;
  account(userid: string, password: string, settings?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** `logger`: where the app logs (a test reading its lines); silent by default. */
export async function startTestApp(
  overrides: Partial<Config> = {},
  options: { logger?: Logger } = {},
): Promise<TestApp> {
  const clock = new ManualClock(Date.UTC(2026, 10, 23, 12));
  // A test may restart the app on the same data directory: it keeps its store (testDb).
  const dataDir = overrides.dataDir ?? tempDir();
  const db = overrides.db ?? (await testDb(dataDir));
  const config = buildConfig({
    dataDir,
    db,
    // Never the system's resolvers (zone health looks the world up): a loopback address where nothing listens.
    resolvers: [NO_RESOLVER],
    httpsPort: await freePort(),
    httpPort: 0,
    dnsPort: 0,
    forwardPort: 0,
    ...overrides,
  });
  const app = await startApp(config, { clock, logger: options.logger ?? pino({ level: 'silent' }) });
  const url = `https://${app.listeners.https}`;
  const ca = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
  const clients: VigilClient[] = [];
  return {
    app,
    clock,
    url,
    ca,
    client(localAddress?: string) {
      const c = new VigilClient({ baseUrl: url, ca, localAddress });
      clients.push(c);
      return c;
    },
    async account(userid, password, settings = {}) {
      const { apikey } = await createAccount(app.services.db, clock, userid, { password, ...settings });
      return apikey;
    },
    async close() {
      clients.forEach((c) => c.close());
      await app.close();
    },
  };
}
