/**
 * Cross-account takeover attempts against a real server on loopback
 * (issue 12, item 1): account A holds domains, account B tries every way
 * of claiming names inside or above them, the service's own names and
 * public suffixes, at concurrency; then both race for parent/child pairs
 * added at the same moment. Bounded: a fixed number of requests, all to
 * 127.0.0.1, and it stops by itself.
 *
 *   npm run bench:takeover [-- --domains 50 --concurrency 16]
 */
import type { VigilClient } from '../../src/client/index.ts';
import { startTestApp } from '../../test/helpers/app.ts';

const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const DOMAINS = arg('--domains', 50);
const CONCURRENCY = arg('--concurrency', 16);
const PASSWORD = 'bench password 12';

const t = await startTestApp({ domainHold: 'manual', nsDomain: 'ns.vigil.test' });
try {
  const login = async (userid: string) => {
    const c = t.client();
    await c.login(await t.account(userid, PASSWORD, { dnsCredits: 100_000 }), userid, PASSWORD);
    return c;
  };
  const [a, b] = [await login('holder'), await login('attacker')];
  const add = async (c: VigilClient, domain: string, domaintype = 'master') => {
    const r = await c.post('dnsAddDomain.php', {
      apikey: c.apikey,
      sessionToken: c.sessionToken,
      domain,
      domaintype,
      aup: 'YES',
    });
    return r.body.status === '0' ? 'ok' : String(r.body.error);
  };
  const owned = Array.from({ length: DOMAINS }, (_, i) => `victim${i}.example`);
  for (const d of owned) if ((await add(a, d)) !== 'ok') throw new Error(`could not add ${d}`);

  // Every way in: children (master and slave, deep, other spellings), parents, the service's names, suffixes.
  const attempts: [string, string][] = [];
  for (const d of owned) {
    for (const name of [`mail.${d}`, `a.b.c.${d}`, `WWW.${d.toUpperCase()}.`, d, `${d}.`]) {
      attempts.push([name, 'master'], [name, 'slave']);
    }
  }
  for (const name of [
    'example',
    'ns.vigil.test',
    'ns1.ns.vigil.test',
    'vigil.test',
    'co.uk',
    'github.io',
    'in-addr.arpa',
    '1.0.0.127.in-addr.arpa',
  ])
    attempts.push([name, 'master']);
  const outcomes = new Map<string, number>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < attempts.length) {
        const [name, type] = attempts[next++]!;
        const code = await add(b, name, type);
        outcomes.set(code, (outcomes.get(code) ?? 0) + 1);
      }
    }),
  );
  const attemptMs = performance.now() - started;

  // Races: for each pair, A adds the parent and B the child in the same instant (and the other way round).
  let bothWon = 0;
  let raced = 0;
  for (let i = 0; i < DOMAINS; i++) {
    const parent = `race${i}.example`;
    const [first, second] = i % 2 ? [a, b] : [b, a];
    const [p, q] = await Promise.all([add(first, parent), add(second, `child.${parent}`)]);
    raced++;
    if (p === 'ok' && q === 'ok') bothWon++;
  }

  console.log(`\n| cross-account takeover attempts (loopback, concurrency ${CONCURRENCY}) | |\n|---|---|`);
  console.log(`| attempts | ${attempts.length} |`);
  for (const [code, n] of [...outcomes].sort()) console.log(`| answered \`${code}\` | ${n} |`);
  console.log(`| attempts per second | ${Math.round(attempts.length / (attemptMs / 1000))} |`);
  console.log(`| parent/child pairs added at the same instant by two accounts | ${raced} |`);
  console.log(`| pairs where both adds succeeded (must be 0) | ${bothWon} |`);
  if (outcomes.get('ok') || bothWon) process.exitCode = 1;
} finally {
  await t.close();
}
