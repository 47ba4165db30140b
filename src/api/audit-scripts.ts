import { params, type SessionScript } from './call.ts';

/** Audit scripts (spec 2-4). saRunAudit answers at once; the audit runs in the background. */
export const auditScripts: Record<string, SessionScript> = {
  'saGetAuditList.php': {
    session: true,
    systemError: 'missingScanClientsRec',
    params: params([]),
    run: ({ account, services }) => services.audits.list(account),
  },
  'saGetAuditReport.php': {
    session: true,
    systemError: 'reportLoadFailure[system]',
    params: params(['scanuid']),
    run: ({ account, services, form }) => services.audits.report(account, form.get('scanuid')),
  },
  'saRunAudit.php': {
    session: true,
    systemError: 'missingScanClientsRec',
    params: params(['audittype'], ['ipaddr', 'excludedos', 'notification']),
    async run({ account, services, form, clientAddress }) {
      const q = await services.audits.run(
        account,
        { ipaddr: form.get('ipaddr'), audittype: form.get('audittype'), excludedos: form.get('excludedos'), notification: form.get('notification') },
        clientAddress,
      );
      services.logger.info({ scanuid: q.scanuid, userid: account.userid, type: q.type, hostip: q.hostip, targets: q.targets }, 'audit queued');
      return {};
    },
  },
};
