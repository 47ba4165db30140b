import type { Form } from './form.ts';
import type { LoginScript, Script, SessionScript } from './call.ts';
import { authScripts } from './auth-scripts.ts';
import { dnsScripts } from './dns-scripts.ts';
import { dnsZoneScripts } from './dns-zone-scripts.ts';
import { auditScripts } from './audit-scripts.ts';
import { accountScripts } from './account-scripts.ts';
import { dnssecScripts } from './dnssec-scripts.ts';
import { dnsHealthScripts } from './dns-health-scripts.ts';
import { scheduleScripts } from './schedule-scripts.ts';

/**
 * THE script table: every script the API serves, by its file name under
 * /api/. A name that is not here answers 404 `unknownScript`; capabilities
 * that have not landed yet are simply absent, never faked.
 */
export const SCRIPTS: Readonly<Record<string, Script>> = Object.freeze({
  ...authScripts,
  ...auditScripts,
  ...dnsScripts,
  ...dnsZoneScripts,
  ...dnssecScripts,
  ...dnsHealthScripts,
  ...scheduleScripts,
  ...accountScripts,
});

/** Follows alias entries to the script that serves this form. */
export function resolveScript(name: string, form: Form): SessionScript | LoginScript | undefined {
  const script = Object.hasOwn(SCRIPTS, name) ? SCRIPTS[name] : undefined;
  return script && 'alias' in script ? script.alias(form) : script;
}
