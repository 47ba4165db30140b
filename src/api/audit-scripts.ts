import { sessionScript, type SessionScript } from './call.ts';

/** Audit scripts (spec 2-4). saRunAudit answers at once; the audit runs in the background. */
export const auditScripts: Record<string, SessionScript> = {
  'saGetAuditList.php': sessionScript('saGetAuditList.php', ({ account, services }) => services.audits.list(account)),
  'saGetAuditReport.php': sessionScript('saGetAuditReport.php', ({ account, services, form }) =>
    services.audits.report(account, form.get('scanuid')),
  ),
  'saRunAudit.php': sessionScript('saRunAudit.php', async ({ account, services, form, clientAddress }) => {
    const q = await services.audits.run(
      account,
      {
        ipaddr: form.get('ipaddr'),
        audittype: form.get('audittype'),
        excludedos: form.get('excludedos'),
        notification: form.get('notification'),
        ports: form.get('ports'),
      },
      clientAddress,
    );
    services.logger.info(
      { scanuid: q.scanuid, userid: account.userid, type: q.type, hostip: q.hostip, targets: q.targets },
      'audit queued',
    );
    // Extension field (INTERFACE.md): the audit's id, as saGetAuditList gives it; spec clients ignore it.
    return { scanuid: String(q.scanuid) };
  }),
};
