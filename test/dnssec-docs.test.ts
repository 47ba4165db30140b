// store-incidental: docs/dnssec.md's delv recipe; stored keys are tested on both engines by dnssec*.test.ts and backup.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { admin, freePort, serve, type Served } from './helpers/server.ts';
import { digAt } from './helpers/signed-zone.ts';
import { hasTool } from './helpers/tools.ts';
import { UserShell } from './helpers/user-cli.ts';
import { eventually } from './helpers/wait.ts';

const DOC = readFileSync(join(resolve(import.meta.dirname, '..'), 'docs/dnssec.md'), 'utf8');
const RECIPE = /<!-- recipe: delv -->\n```sh\n([\s\S]*?)```/.exec(DOC)?.[1];
const TOOLS = ['dig', 'delv', 'jq'];
const missing = TOOLS.filter((t) => !hasTool(t));

/**
 * docs/dnssec.md's "How to check it with delv", run as written (issue 29)
 * by a user's shell against a real `bin/vigil serve`: the user turns
 * NSEC3 on with the CLI, the operator's cycle signs, and the recipe's
 * delv lines give the verdicts the doc says. Only `port=53` is changed,
 * to the serve's --dns-port. Then the same with NSEC; and the CLI flags' usage errors.
 */
describe('docs/dnssec.md: the delv recipe, as written, against a real serve', {
  skip: missing.length ? `missing ${missing.join(', ')}` : false,
}, () => {
  let s: Served;
  let u: UserShell;
  let port: number;
  const recipe = () => u.bash(RECIPE!.replace(/^port=53\b/m, `port=${port}`));

  before(async () => {
    port = await freePort();
    s = await serve({ args: ['--domain-hold', 'none', '--dns-port', String(port)] });
    u = await UserShell.create(s, 'walker', 'correct horse 29', '--dns-credits', '2');
    const r = await u.bash(
      [
        'printf \'%s\\n\' "$VIGIL_PASSWORD" | vigil login --url "$VIGIL_URL" --apikey "$VIGIL_APIKEY" \\',
        '  --userid "$VIGIL_USERID" --cacert "$VIGIL_CACERT" --password-stdin',
        'vigil dns add-domain example.org',
        'vigil dns add example.org A name=www ip=192.0.2.7',
        'vigil dns publish example.org',
      ].join('\n'),
    );
    assert.equal(r.code, 0, r.stderr);
  });
  after(() => s?.stop());

  test('the recipe is in the doc, and uses only the loopback address', () => {
    assert.ok(RECIPE, 'docs/dnssec.md has a `<!-- recipe: delv -->` block');
    const addresses = RECIPE.match(/@\S+/g) ?? [];
    assert.ok(addresses.length > 0);
    for (const a of addresses) assert.equal(a, '@127.0.0.1');
  });

  test('the CLI: --nsec3 and --nsec go with on only, and not together (usage, exit 2, nothing changed)', async () => {
    const [off, both, show] = await Promise.all([
      u.vigil(['dns', 'dnssec', 'example.org', 'off', '--nsec3']),
      u.vigil(['dns', 'dnssec', 'example.org', 'on', '--nsec3', '--nsec']),
      u.vigil(['dns', 'dnssec', 'example.org', '--nsec']),
    ]);
    for (const r of [off, both, show]) assert.equal(r.code, 2, r.stderr);
    assert.match(off.stderr, /--nsec3 and --nsec go with on/);
    assert.match(both.stderr, /cannot be used with/);
    assert.equal((await u.vigil(['dns', 'dnssec', 'example.org'])).stdout, 'example.org: signing off\n');
  });

  for (const denial of ['NSEC3', 'NSEC'] as const) {
    test(`${denial}: the DS as the anchor, a validated SOA, NXDOMAIN and NODATA, and the chain in use`, async () => {
      const on = await u.vigil(['dns', 'dnssec', 'example.org', 'on', denial === 'NSEC3' ? '--nsec3' : '--nsec']);
      assert.equal(on.code, 0, on.stderr);
      assert.match(on.stdout, new RegExp(`^example\\.org: signing on, ${denial}$`, 'm'));
      await admin(s.dataDir, 'distribute');
      // The serve takes the version the operator's cycle signed from the store shortly after.
      await eventually(
        async () => new RegExp(`\\sIN\\s+${denial}\\s`).test(await digAt(port, '+dnssec', 'nope.example.org', 'A')),
        `${denial} served`,
        20_000,
      );
      const r = await recipe();
      assert.equal(r.code, 0, r.stderr);
      const out = `${r.stdout}\n${r.stderr}`;
      assert.match(out, /^; fully validated\nexample\.org\.\s+\d+\s+IN\s+SOA\s/m, out);
      assert.equal((out.match(/^; negative response, fully validated$/gm) ?? []).length, 2, out);
      // delv says `resolution failed: ncache nxdomain` (nxrrset) of a validated negative answer: nothing else.
      assert.deepEqual(out.match(/resolution failed: .*/g), [
        'resolution failed: ncache nxdomain',
        'resolution failed: ncache nxrrset',
      ]);
      if (denial === 'NSEC3') {
        assert.match(r.stdout, /^1 0 0 -$/m);
        assert.match(r.stdout, /^[0-9a-v]{32}\.example\.org\.\s+\d+\s+IN\s+NSEC3\s+1 0 0 - /m);
        assert.doesNotMatch(r.stdout, /\sIN\s+NSEC\s/);
      } else {
        assert.doesNotMatch(r.stdout, /^1 0 0 -$/m);
        assert.match(r.stdout, /^\S*example\.org\.\s+\d+\s+IN\s+NSEC\s/m);
        assert.doesNotMatch(r.stdout, /\sIN\s+NSEC3\s/);
      }
    });
  }
});
