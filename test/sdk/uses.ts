// Type uses of the typed client, checked by tsc: right uses compile, each
// wrong one carries @ts-expect-error (which fails the build when the wrong
// use compiles after all). test/client-sdk.test.ts checks this file twice:
// against the sources here (the project's typecheck) and against the built
// package (`vigil/client`, its .d.ts), with the import rewritten.
import {
  VigilApiError,
  type VigilClient,
  type ErrorCode,
  type ScriptParams,
  type ScriptReply,
} from '../../src/client/index.ts';

export async function uses(c: VigilClient): Promise<void> {
  // Methods: typed params, typed replies.
  const list = await c.dnsGetDomainList();
  const count: number = list.domaincount;
  const first = list.domains?.['1'];
  const state: number | undefined = first?.state;
  const served: number | null | undefined = first?.servedSerial;
  await c.dnsAddA({ domain: 'example.org', name: 'www', ip: '192.0.2.7' });
  await c.dnsAddA({ domain: 'example.org', name: 'www', ip: '192.0.2.7', ttl: 300 });
  await c.dnsAddDomain({ domain: 'example.org', domaintype: 'master', aup: 'YES' });
  const records = await c.dnsGetDomainRecords({ domain: 'example.org' });
  const data: string | number | undefined = records.records['5']?.data['name'];
  const run = await c.saRunAudit({ audittype: 'basic', ipaddr: '127.0.0.1', notification: 'OCMP' });
  const scanuid: string = run.scanuid;
  const report = await c.saGetAuditReport({ scanuid });
  const risk: 'high' | 'medium' | 'low' | 'other' | undefined = report.scaninfo.entries?.['high']?.['1_1']?.risk;
  const pub = await c.dnsPublish({ domain: 'example.org' });
  const warnings: string[] | undefined = pub.warnings;
  await c.dnsSetSOA({ domain: 'example.org', ttl: 3600 }, { via: 'dnsAddTXT.php' });
  await c.dnsAddCAA(
    { domain: 'example.org', subdomain: '', flag: 0, tag: 'issue', value: 'ca.example' },
    { via: 'dnsAddNS.php' },
  );
  const zone: string = (await c.dnsBuildZone({ domain: 'example.org' })).zone;

  // @ts-expect-error ip is required for an A record
  await c.dnsAddA({ domain: 'example.org', name: 'www' });
  // @ts-expect-error `ipaddr`, not `ip`: the mistake issue 16 names
  await c.saRunAudit({ audittype: 'basic', ip: '127.0.0.1' });
  // @ts-expect-error not an audit type
  await c.saRunAudit({ audittype: 'quick' });
  // @ts-expect-error aup must be YES
  await c.dnsAddDomain({ domain: 'example.org', domaintype: 'master', aup: 'yes' });
  // @ts-expect-error domaintype is master or slave
  await c.dnsAddDomain({ domain: 'example.org', domaintype: 'primary', aup: 'YES' });
  // @ts-expect-error the reply has no such field
  void (await c.dnsAddA({ domain: 'example.org', name: '', ip: '192.0.2.1' })).seq;
  // @ts-expect-error a zone is text
  const notNumber: number = zone;
  // @ts-expect-error dnsAddA.php is no shared name
  await c.dnsSetSOA({ domain: 'example.org', ttl: 3600 }, { via: 'dnsAddA.php' });
  // @ts-expect-error no such script method
  await c.dnsAddPTR({ domain: 'example.org' });

  // Typed `call`: the script's fields; a shared name takes any of its operations' fields.
  const viaCall = await c.call('dnsGetDomainList.php', {});
  const n: number = viaCall.domaincount;
  await c.call('dnsAddTXT.php', { domain: 'example.org', admin: 'dns@example.org' });
  // The untyped form still works for any name.
  const anyReply: Record<string, any> = await c.call('someExtension.php', { anything: 1 });

  // Error codes: a union of the catalogue.
  try {
    await c.dnsDeleteRecord({ seq: 5 });
  } catch (err) {
    if (err instanceof VigilApiError) {
      const code: ErrorCode | `http ${number}` = err.code;
      if (code === 'recordNotDeleted') void code;
      // @ts-expect-error not a code the API answers
      if (code === 'recordNotFound') void code;
    }
  }
  const p: ScriptParams<'dnsAddMX.php'> = { domain: 'example.org', name: '', mxname: 'mail', priority: 10 };
  const r: ScriptReply<'auth.php'> = { status: '0', sessionToken: 'x' };
  void [count, state, served, data, risk, warnings, notNumber, n, anyReply, p, r];
}
