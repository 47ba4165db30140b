/**
 * The short lists the authentication-service checks try (never a
 * dictionary): Kerberos principals and realms, RADIUS shared secrets.
 */

/**
 * Single-component principals asked for with an AS-REQ without
 * pre-authentication (general/kerberos-*.ts): the administrator, test and
 * service accounts labs and small realms create first. krbtgt and the
 * kadmin/* services are left out: their keys are random, so an AS-REP for
 * them proves nothing crackable (kadmin/changepw serves only to confirm a
 * realm, lib/kdc-survey.ts).
 */
export const KERBEROS_NAMES: readonly string[] = [
  'administrator',
  'admin',
  'root',
  'guest',
  'user',
  'test',
  'testuser',
  'demo',
  'backup',
  'service',
  'svc',
  'sql',
  'sqlsvc',
  'web',
  'www',
  'ldap',
  'nfs',
  'ftp',
  'mail',
  'operator',
  'support',
  'helpdesk',
  'scanner',
  'monitor',
  'deploy',
];

/**
 * Realms tried after the KDC's own hint and the host's names (uppercased
 * domains of its banners and certificates): the examples of MIT's and
 * Heimdal's documentation (ATHENA.MIT.EDU is also Debian's krb5.conf
 * default), RFC 2606/6761 names and the usual private suffixes.
 */
export const KERBEROS_REALMS: readonly string[] = [
  'EXAMPLE.COM',
  'EXAMPLE.ORG',
  'EXAMPLE.NET',
  'EXAMPLE.TEST',
  'ATHENA.MIT.EDU',
  'LOCALDOMAIN',
  'LOCAL',
  'TEST',
  'CORP',
  'LAN',
];

/**
 * RADIUS shared secrets that ship in configurations and manuals: FreeRADIUS's
 * clients.conf ("testing123"), the placeholders of NAS and switch guides
 * ("radius", "secret", "cisco", "password"), and the vendor defaults of
 * small RADIUS appliances and test servers ("testing", "sharedsecret",
 * "radiussecret", "admin", "123456"). They are checked offline against one
 * reply (general/radius-default-secret.ts): the list costs the server nothing.
 */
export const RADIUS_SECRETS: readonly string[] = [
  'testing123',
  'radius',
  'secret',
  'cisco',
  'password',
  'testing',
  'sharedsecret',
  'radiussecret',
  'admin',
  '123456',
];
