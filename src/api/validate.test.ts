import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AccountRow } from '../accounts/accounts.ts';
import { ApiError } from '../errors.ts';
import { MALFORMED, parseForm } from './form.ts';
import { resolveScript } from './scripts.ts';
import { checkBeforeRun, unknownFields } from './validate.ts';

const NOW = Date.UTC(2026, 10, 23, 12);
const subscribed = { dns_credits: 5, dns_expiry: NOW + 1, audit_types: 'basic' } as unknown as AccountRow;
const expired = { ...subscribed, dns_expiry: NOW } as AccountRow;

/** The code the table's checks answer for this call, or 'run' when the script would run. */
function outcome(name: string, fields: Record<string, string>, account: AccountRow = subscribed): string {
  const form = new Map(Object.entries(fields));
  const script = resolveScript(name, form)!;
  try {
    checkBeforeRun(script, form, account, NOW, unknownFields(script, form));
    return 'run';
  } catch (err) {
    assert.ok(err instanceof ApiError);
    return err.code;
  }
}

test('the table checks in the spec order: subscription, then fields in declared order', () => {
  assert.equal(
    outcome('dnsAddDomain.php', { aup: 'no', domain: '-bad-', domaintype: 'x' }, expired),
    'dnsEntitlementsOrCreditsMissing',
  );
  assert.equal(outcome('dnsAddDomain.php', { aup: 'no', domain: '-bad-', domaintype: 'x' }), 'mustAcceptAUP');
  assert.equal(outcome('dnsAddDomain.php', { aup: 'YES', domain: '-bad-', domaintype: 'x' }), 'syntaxInvalidDomain');
  assert.equal(
    outcome('dnsAddDomain.php', { aup: 'YES', domain: 'Example.ORG.', domaintype: 'x' }),
    'syntaxInvalidDomainType',
  );
  assert.equal(outcome('dnsAddDomain.php', { aup: 'YES', domain: 'example.org', domaintype: 'slave' }), 'run');
  assert.equal(outcome('dnsGetDomainRecords.php', {}), 'syntaxInvalidDomain');
  for (const seq of ['', '0', '01', '-1', '1e3', MALFORMED])
    assert.equal(outcome('dnsDeleteRecord.php', { seq }), 'syntaxInvalidSeq', seq);
  assert.equal(outcome('dnsDeleteRecord.php', { seq: '42' }), 'run');
});

test("a record's own fields are the domain's to check, after noSuchDomain", () => {
  assert.equal(outcome('dnsAddA.php', { domain: 'example.org', name: '-', ip: 'nope' }), 'run');
  assert.equal(outcome('dnsAddA.php', { domain: MALFORMED, name: '-', ip: 'nope' }), 'syntaxInvalidDomain');
  // SRV's optional domain: checked only when sent.
  assert.equal(outcome('dnsAddSRV.php', { srvc: 'sip', prot: 'tcp', host: 'x.example.org' }), 'run');
  assert.equal(outcome('dnsAddSRV.php', { srvc: 'sip', prot: 'tcp', host: 'x', domain: '' }), 'syntaxInvalidDomain');
});

test('saRunAudit: missing, then invalid type, then entitlement', () => {
  assert.equal(outcome('saRunAudit.php', {}), 'missingAuditType');
  assert.equal(outcome('saRunAudit.php', { audittype: '' }), 'missingAuditType');
  assert.equal(outcome('saRunAudit.php', { audittype: 'quick' }), 'invalidAuditType');
  assert.equal(outcome('saRunAudit.php', { audittype: 'advanced' }), 'notEntitled');
  assert.equal(
    outcome('saRunAudit.php', { audittype: 'basic', ip: '127.0.0.1' }),
    'run',
    'a spec script only logs an unknown field',
  );
});

test('unknown fields: named on every script, refused on extension scripts after the subscription', () => {
  const form = parseForm('apikey=k&sessionToken=t&domain=example.org&ip=1&ttl=60&ipaddr=x');
  assert.deepEqual(unknownFields(resolveScript('dnsAddA.php', form)!, form), ['ipaddr']);
  const login = parseForm('apikey=k&userid=u&password=p&sessionToken=t');
  assert.deepEqual(unknownFields(resolveScript('auth.php', login)!, login), ['sessionToken']);
  const web = { domain: 'example.org', host: 'go', target: 'https://example.org/' };
  assert.equal(outcome('dnsAddWebForwarding.php', { ...web, tll: '60' }, expired), 'dnsEntitlementsOrCreditsMissing');
  assert.equal(outcome('dnsAddWebForwarding.php', { ...web, tll: '60' }), 'unknownParameter');
  assert.equal(outcome('dnsAddWebForwarding.php', { ...web, ttl: '60' }), 'run');
});
