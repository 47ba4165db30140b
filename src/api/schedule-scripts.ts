import { sessionScript, type SessionScript } from './call.ts';

/** Audit schedules' extension scripts (src/api/contract/schedules.ts declares them; src/audit/schedules.ts decides). */
export const scheduleScripts: Record<string, SessionScript> = {
  'saScheduleAudit.php': sessionScript('saScheduleAudit.php', async ({ account, services, form, clientAddress }) => {
    const r = await services.schedules.create(
      account,
      {
        ipaddr: form.get('ipaddr'),
        audittype: form.get('audittype'),
        excludedos: form.get('excludedos'),
        notification: form.get('notification'),
        ports: form.get('ports'),
        every: form.get('every'),
        alert: form.get('alert'),
      },
      clientAddress,
    );
    services.logger.info(
      { scheduleid: r.scheduleid, userid: account.userid, type: form.get('audittype'), every: form.get('every') },
      'audit scheduled',
    );
    return r;
  }),
  'saGetScheduleList.php': sessionScript('saGetScheduleList.php', ({ account, services }) =>
    services.schedules.list(account),
  ),
  'saDeleteSchedule.php': sessionScript('saDeleteSchedule.php', async ({ account, services, form }) => {
    const r = await services.schedules.delete(account, form.get('scheduleid'));
    services.logger.info({ scheduleid: form.get('scheduleid'), userid: account.userid }, 'audit schedule deleted');
    return r;
  }),
};
