import type { AccountRow } from '../accounts/accounts.ts';
import { normalizeDomain } from '../dns/names.ts';
import { requireSubscription } from '../dns/subscription.ts';
import { fail } from '../errors.ts';
import type { LoginScript, SessionScript } from './call.ts';
import type { Kind, ParamSpec } from './contract/index.ts';
import type { Form } from './form.ts';

/**
 * The checks the table declares, run by the API before a script's `run`,
 * in the order the spec's precedence (and the black-box suite) expects:
 * session (the caller authenticated it), DNS subscription, unknown fields
 * of an extension script, each `checkedBy: 'table'` parameter in declared
 * order, then the audit entitlement (it names the type just checked). The
 * domain keeps the checks that come after a state check (record fields
 * after `noSuchDomain`) and its own cross-field rules.
 */

/** Whether a present value is well formed, by kind; a kind not here is only ever checked by the domain. */
const WELL_FORMED: Partial<Record<Kind, (value: string, p: ParamSpec) => boolean>> = {
  // The domain's own normalization: the same answer it would give, a step earlier.
  domain: (v) => normalizeDomain(v) !== null,
  enum: (v, p) => p.values!.includes(v),
  // A positive decimal without leading zeros, as the record store's seq.
  seq: (v) => /^[1-9]\d{0,15}$/.test(v),
  text: () => true,
  presence: () => true,
};

function checkParam(p: ParamSpec, value: string | undefined): void {
  const blank = value === undefined || (p.kind === 'enum' && value === '' && p.missingCode !== undefined);
  if (blank) {
    if (p.required && (p.missingCode ?? p.code)) fail((p.missingCode ?? p.code)!);
    return;
  }
  const ok = WELL_FORMED[p.kind];
  if (ok && !ok(value, p) && p.code) fail(p.code);
}

/** The standing fields: every call's key, and the token of a session script. */
const standing = (script: SessionScript | LoginScript, name: string) =>
  name === 'apikey' || (script.session && name === 'sessionToken');

/** Fields the script does not take: their names only (a value may be a secret typed in the wrong box). */
export function unknownFields(script: SessionScript | LoginScript, form: Form): string[] {
  const out: string[] = [];
  for (const name of form.keys()) if (!standing(script, name) && !Object.hasOwn(script.params, name)) out.push(name);
  return out;
}

/** The `checkedBy: 'table'` params of a script, in declared order; found once per script. */
const checkedByTable = new WeakMap<object, readonly (readonly [string, ParamSpec])[]>();
function tableChecked(script: SessionScript | LoginScript) {
  let list = checkedByTable.get(script);
  if (!list)
    checkedByTable.set(script, (list = Object.entries(script.params).filter(([, p]) => p.checkedBy === 'table')));
  return list;
}

export function checkBeforeRun(
  script: SessionScript | LoginScript,
  form: Form,
  account: AccountRow | null,
  now: number,
  unknown: readonly string[],
): void {
  if (script.requires.includes('dnsSubscription')) requireSubscription(account!, now);
  // The spec's scripts only log an unknown field (a spec client may send extras); Vigil's own refuse it.
  if (script.extension && unknown.length) fail('unknownParameter');
  for (const [name, p] of tableChecked(script)) checkParam(p, form.get(name));
  if (script.requires.includes('auditEntitlement') && !account!.audit_types.split(',').includes(form.get('audittype')!))
    fail('notEntitled');
}
