/**
 * Concurrent password guessing against a real `bin/vigil serve` on loopback
 * (issue 12, item 4): how many guesses are really checked, how the real
 * user fares meanwhile, and how many attempts the throttle answers 429.
 * Bounded: a fixed number of guesses, each phase stopped after --seconds;
 * every packet stays on 127.0.0.0/8 (one source address per attacker).
 *
 *   node --import tsx bench/hostile/guessing.ts [--guesses 1000] [--seconds 60]
 *
 * Phases:
 *   1. one address sends --guesses wrong passwords for one userid, 50 at a
 *      time, while the real user logs in from their usual address every
 *      100 ms (for the burst, and 3 s at least) and once from a new one;
 *   2. ten addresses share --guesses wrong passwords for another userid;
 *   3. after that, users who share the attacker's address log in there.
 */
import { join } from 'node:path';
import { LoginCaller, type LoginReply } from '../../test/helpers/login.ts';
import { addAccount, adminJson, serve, tempDir } from '../../test/helpers/server.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  const n = i > 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(n) && n > 0 ? n : fallback;
};
const GUESSES = Math.min(arg('--guesses', 1000), 10_000);
const SECONDS = Math.min(arg('--seconds', 60), 300);
const PASSWORD = 'the real password';
// Under the per-address connection cap of the API (64 by default).
const SOCKETS = 50;

interface Tally {
  checked: number;
  throttled: number;
  other: number;
}
const tally = (replies: LoginReply[]): Tally => ({
  checked: replies.filter((r) => r.http === 200 && r.body?.error === 'invalidLogin').length,
  throttled: replies.filter((r) => r.http === 429).length,
  other: replies.filter((r) => r.http !== 429 && !(r.http === 200 && r.body?.error === 'invalidLogin')).length,
});

/**
 * The real user, logging in every 100 ms until `stop` resolves (3 s at least); ms of each try and whether it
 * got in.
 */
async function realUser(caller: LoginCaller, apikey: string, userid: string, stop: Promise<unknown>) {
  let done = false;
  void Promise.all([stop, new Promise((res) => setTimeout(res, 3000))]).then(() => (done = true));
  const tries: { ok: boolean; ms: number; http: number }[] = [];
  while (!done) {
    const started = performance.now();
    const r = await caller.post({ apikey, userid, password: PASSWORD });
    tries.push({ ok: r.body?.status === '0', ms: performance.now() - started, http: r.http });
    await new Promise((res) => setTimeout(res, 100));
  }
  const ms = tries.map((t) => t.ms).sort((a, b) => a - b);
  return {
    attempts: tries.length,
    succeeded: tries.filter((t) => t.ok).length,
    throttled: tries.filter((t) => t.http === 429).length,
    p50ms: Math.round(ms[Math.floor(ms.length / 2)] ?? 0),
    maxMs: Math.round(ms.at(-1) ?? 0),
  };
}

/** Sends `count` wrong guesses through `callers` (round robin), all queued at once; stops after SECONDS. */
async function burst(callers: LoginCaller[], apikey: string, userid: string, count: number) {
  const deadline = AbortSignal.timeout(SECONDS * 1000);
  const started = performance.now();
  const replies = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      deadline.aborted
        ? null
        : callers[i % callers.length]!.post({ apikey, userid, password: `guess ${i}` }).catch(() => null),
    ),
  );
  const answered = replies.filter((r): r is LoginReply => r !== null);
  return {
    sent: count,
    answered: answered.length,
    seconds: +((performance.now() - started) / 1000).toFixed(2),
    ...tally(answered),
  };
}

const s = await serve({ logFile: join(tempDir('vigil-bench-'), 'vigil.log'), env: { VIGIL_LOG_LEVEL: 'warn' } });
const callers: LoginCaller[] = [];
const caller = (address: string, sockets = 4) => {
  const c = new LoginCaller(s.httpsUrl, s.ca, address, sockets);
  callers.push(c);
  return c;
};
try {
  const victim = await addAccount(s.dataDir, 'victim', PASSWORD);
  const victim2 = await addAccount(s.dataDir, 'victim2', PASSWORD);
  const neighbour = await addAccount(s.dataDir, 'neighbour', PASSWORD);
  const newcomer = await addAccount(s.dataDir, 'newcomer', PASSWORD);
  const home = caller('127.0.0.1');
  const ok = async (c: LoginCaller, key: string, userid: string) =>
    (await c.post({ apikey: key, userid, password: PASSWORD })).body?.status === '0';
  // Usual addresses: the victims log in from home, the neighbour from the attacker's address.
  if (!(await ok(home, victim, 'victim')) || !(await ok(home, victim2, 'victim2')))
    throw new Error('set-up login failed');
  // The real user's login on a quiet server, to compare with (scrypt makes it ~100 ms).
  const quiet: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    if (!(await ok(home, victim, 'victim'))) throw new Error('set-up login failed');
    quiet.push(performance.now() - started);
  }
  const quietLoginMs = Math.round(quiet.sort((a, b) => a - b)[2]!);
  const attacker = caller('127.0.0.2', SOCKETS);
  if (!(await ok(attacker, neighbour, 'neighbour'))) throw new Error('set-up login failed');
  await attacker.warm(SOCKETS);

  // 1. One address.
  let attack = burst([attacker], victim, 'victim', GUESSES);
  const user1 = realUser(home, victim, 'victim', attack);
  const away1 = (async () => {
    await new Promise((res) => setTimeout(res, 200));
    return (
      (await caller('127.0.0.3').post({ apikey: victim, userid: 'victim', password: PASSWORD })).body?.status === '0'
    );
  })();
  const phase1 = { attack: await attack, realUserAtHome: await user1, realUserFromNewAddressGotIn: await away1 };
  const pair = (await adminJson(s.dataDir, 'throttle', 'list')).find(
    (e: any) => e.scope === 'pair' && e.userid === 'victim',
  );

  // 2. Ten addresses, one userid.
  const many = Array.from({ length: 10 }, (_, i) => caller(`127.0.0.${20 + i}`, 10));
  await Promise.all(many.map((c) => c.warm(10)));
  attack = burst(many, victim2, 'victim2', GUESSES);
  const user2 = realUser(home, victim2, 'victim2', attack);
  const phase2 = { attack: await attack, realUserAtHome: await user2 };

  // 3. The attacker's address afterwards.
  const known = await attacker.post({ apikey: neighbour, userid: 'neighbour', password: PASSWORD });
  const fresh = await attacker.post({ apikey: newcomer, userid: 'newcomer', password: PASSWORD });
  const phase3 = {
    neighbourWithKnownAddress: { http: known.http, status: known.body?.status },
    newcomerOnThatAddress: { http: fresh.http, status: fresh.body?.status, retryAfter: fresh.retryAfter ?? null },
  };

  const report = { guesses: GUESSES, quietLoginMs, phase1, pairFailuresRecorded: pair?.failures ?? 0, phase2, phase3 };
  console.log(JSON.stringify(report, null, 2));
  console.log(
    '\n| phase | guesses sent | checked | 429 | other | seconds | real user at home: ok/tries, p50/max ms |\n|---|---|---|---|---|---|---|',
  );
  for (const [name, p] of [
    ['1 address', phase1],
    ['10 addresses', phase2],
  ] as const) {
    const a = p.attack;
    const u = p.realUserAtHome;
    console.log(
      `| ${name} | ${a.sent} | ${a.checked} | ${a.throttled} | ${a.other} | ${a.seconds} | ${u.succeeded}/${u.attempts}, ${u.p50ms}/${u.maxMs} |`,
    );
  }
  console.log(`\nreal user's login on a quiet server: ${quietLoginMs} ms (median of 5)`);
} finally {
  callers.forEach((c) => c.close());
  await s.stop();
}
