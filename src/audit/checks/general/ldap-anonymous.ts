import { defineCheck } from '../kit.ts';
import { ldapAnonymousRead } from '../../proto/ldap.ts';
import { shown } from '../../proto/talk.ts';

export default defineCheck({
  id: 'vigil.ldap.anonymous',
  shortid: 'LDAP-ANON',
  title: 'LDAP directory readable by an anonymous bind',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  cves: ['CVE-1999-0385'],
  type: 'HOLE',
  qod: 99,
  description:
    'The LDAP server accepted an anonymous bind and returned directory entries from its naming context: user names, groups, mail addresses and often more can be harvested by anyone.',
  solution:
    'Require authentication for directory data ("disallow bind_anon", or ACLs "by anonymous auth") and leave only the root DSE public.',
  ports: { services: ['ldap'], ports: [389] },
  run: async ({ net, port }) => {
    const r = await ldapAnonymousRead(net, port);
    return r && r.entries > 0
      ? `anonymous bind accepted; a search of "${shown(r.base, 80)}" returned ${r.entries} entr${r.entries === 1 ? 'y' : 'ies'} (${shown(r.sample, 120)})`
      : null;
  },
});
