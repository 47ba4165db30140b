// The spec's error codes put into words, and the form field each one is
// about, so a record form shows the error next to the field it concerns
// (issue 17). One table: a code missing here is shown as the code itself.
export const WORDS: Record<string, [text: string, field?: string]> = {
  'missing credentials': ['Enter the user ID and the password.'],
  invalidLogin: ['The user ID and password do not match.'],
  'invalid apikey format': ['This is not a valid API key.', 'apikey'],
  'invalid apikey - not in db': ['This API key is not known.', 'apikey'],
  sessionTimeout: ['Your session has expired; log in again.'],
  sessionAuthenticationFailure: ['Your session is no longer valid; log in again.'],
  dnsEntitlementsOrCreditsMissing: ['Your DNS subscription has expired or its credits are used up.'],
  dbConnectionFailure: ['The service cannot reach its database; try again shortly.'],
  missingAuditType: ['Choose an audit type.', 'audittype'],
  invalidAuditType: ['This audit type does not exist.', 'audittype'],
  IPPermissionsProblem: ['You may not audit one or more of these addresses.', 'ipaddr'],
  notEntitled: ['Your subscription does not include this audit type.', 'audittype'],
  noriskAlreadyRun: ['A no-risk audit of this address already ran this month.', 'ipaddr'],
  noSuchDomain: ['This domain is not in your account.', 'domain'],
  mustAcceptAUP: ['Accept the acceptable use policy to add a domain.', 'aup'],
  syntaxInvalidDomain: ['This is not a valid domain name.', 'domain'],
  syntaxInvalidDomainType: ['Choose master or slave.', 'domaintype'],
  unableToAddDuplicate: ['This domain is already in an account.', 'domain'],
  unableToAddSystem: ['The domain could not be added (system error); try again later.'],
  unspecifiedError: ['The record was not added.'],
  domainNotDeleted: ['The domain was not deleted.'],
  recordNotDeleted: ['The record was not deleted.'],
  syntaxInvalidSeq: ['This record number is not valid.'],
  syntaxInvalidHostname: ['This is not a valid host name.', 'name'],
  syntaxInvalidIP: ['This is not a valid address for this record type.', 'ip'],
  syntaxInvalidCNAME: ['This is not a valid alias.', 'alias'],
  syntaxInvalidMX: ['This is not a valid name for the MX record.', 'name'],
  syntaxInvalidPriority: ['The priority must be a number in range.', 'priority'],
  syntaxInvalidSubdomain: ['This is not a valid subdomain.', 'subdomain'],
  syntaxInvalidFlag: ['The flag must be a number from 0 to 255.', 'flag'],
  syntaxInvalidTag: ['The tag must be issue, issuewild or iodef.', 'tag'],
  syntaxInvalidTxtname: ['This is not a valid TXT record name.', 'name'],
  syntaxInvalidTxtdata: ['This TXT text is not valid (too long or not printable).', 'txtdata'],
  syntaxInvalidSrvc: ['The service must look like _sip.', 'srvc'],
  syntaxInvalidProt: ['The protocol must look like _tcp or _udp.', 'prot'],
  syntaxInvalidTarget: ['This is not a valid target host.', 'target'],
  syntaxInvalidWeight: ['The weight must be a number from 0 to 65535.', 'weight'],
  syntaxInvalidPort: ['The port must be a number from 0 to 65535.', 'port'],
  syntaxInvalidTTL: ['The TTL must be a number of seconds.', 'ttl'],
  syntaxInvalidAdmin: ['This is not a valid e-mail address.', 'admin'],
  missingInput: ['Give the admin address or the TTL (or both).'],
  syntaxInvalidMasters: ['Give one or more master IP addresses.', 'masters'],
  syntaxInvalidAllowtransferacl: ['Give IP addresses or networks allowed to transfer.', 'allowtransferacl'],
  syntaxInvalidNotify: ['Notify must be yes, no or explicit.', 'notify'],
  syntaxInvalidAlsoNotify: ['Give IP addresses to notify.', 'alsonotify'],
  logicAlsoNotifyRequiresNotify: ['Also-notify needs notify turned on.', 'alsonotify'],
  cnameConflict: ['A CNAME must be the only record at its name: delete the other records there first.', 'name'],
  syntaxInvalidKeytag: ['The key tag must be a number from 0 to 65535.', 'keytag'],
  syntaxInvalidAlgorithm: ['This algorithm number is not one this record type takes.', 'algorithm'],
  syntaxInvalidDigesttype: ['The digest type must be 1 (SHA-1), 2 (SHA-256), 3 (GOST) or 4 (SHA-384).', 'digesttype'],
  syntaxInvalidDigest: ['The digest must be hex of the length its digest type gives.', 'digest'],
  syntaxInvalidUsage: ['The usage must be 0 to 3.', 'usage'],
  syntaxInvalidSelector: ['The selector must be 0 or 1.', 'selector'],
  syntaxInvalidMatchingtype: ['The matching type must be 0, 1 or 2.', 'matchingtype'],
  syntaxInvalidData: ['The data must be hex of the length its matching type gives.', 'data'],
  syntaxInvalidFptype: ['The fingerprint type must be 1 (SHA-1) or 2 (SHA-256).', 'fptype'],
  syntaxInvalidFingerprint: ['The fingerprint must be hex of the length its type gives.', 'fingerprint'],
  syntaxInvalidParams: ['These service parameters are not valid (e.g. alpn=h2,h3 port=8443).', 'params'],
  syntaxInvalidOrder: ['The order must be a number from 0 to 65535.', 'order'],
  syntaxInvalidPreference: ['The preference must be a number from 0 to 65535.', 'preference'],
  syntaxInvalidFlags: ['The flags must be letters and digits, at most one of S, A, U, P.', 'flags'],
  syntaxInvalidService: ['This is not a valid service (e.g. SIP+D2U).', 'service'],
  syntaxInvalidRegexp: ['This is not a valid substitution expression (e.g. !^.*$!sip:info@example.com!).', 'regexp'],
  syntaxInvalidReplacement: [
    'The replacement must be a domain name or a dot, and not given with a regexp.',
    'replacement',
  ],
  syntaxInvalidEnable: ['Choose whether the zone is signed.', 'enable'],
  syntaxInvalidNsec3: ['Choose NSEC or NSEC3.', 'nsec3'],
  dnssecMasterOnly: ['A slave domain is signed, or not, by its masters.'],
  dnssecNotEnabled: ['The zone is not signed yet: its keys are made at the next distribution.'],
  syntaxInvalidPorts: ['Give TCP ports and ranges from 1 to 65535, e.g. 22,80,8000-8100.', 'ports'],
  syntaxInvalidSchedule: ['Choose every day, week or month (no-risk audits: month).', 'every'],
  noSuchSchedule: ['This schedule is not in your account.'],
  scheduleLimitReached: ['Your account has as many schedules as it may hold; delete one first.'],
  auditQueueFull: ['Your account has as many audits waiting as it may; wait for some to finish.'],
  unknownScript: ['The server does not know this operation.'],
  malformedReply: ['The server sent a reply the console cannot read.'],
};

export function words(code: string): string {
  if (code.startsWith('reportLoadFailure')) return `The report could not be loaded (${code}).`;
  return WORDS[code]?.[0] ?? code;
}

/**
 * The field an error code is about on a given form, if that form has it:
 * the form's own declaration first (a record form's fields carry their
 * codes, from the record table), else the table above.
 */
export function fieldOf(
  code: string,
  fields: readonly string[],
  declared: readonly { name: string; code?: string }[] = [],
): string | undefined {
  const own = declared.find((f) => f.code === code)?.name;
  if (own) return own;
  const f = WORDS[code]?.[1];
  return f && fields.includes(f) ? f : undefined;
}
