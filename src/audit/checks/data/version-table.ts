import type { Family, Risk } from '../../engine/types.ts';
import { DATA_TABLES } from './version-table-data.ts';
import { MAIL_TABLES } from './version-table-mail.ts';
import { REMOTE_TABLES } from './version-table-remote.ts';
import { WEB_TABLES } from './version-table-web.ts';

/**
 * Products whose version shows in a banner or header. The key is the
 * check id (vigil.version.<key>), so keys never change.
 */
export type ProductKey =
  | 'apache'
  | 'nginx'
  | 'iis'
  | 'lighttpd'
  | 'mini_httpd'
  | 'openssl'
  | 'php'
  | 'openssh'
  | 'vsftpd'
  | 'proftpd'
  | 'pureftpd'
  | 'exim'
  | 'postfix'
  | 'sendmail'
  | 'dovecot'
  | 'mysql'
  | 'mariadb'
  | 'redis'
  | 'bind';

/**
 * One advisory. `affected` is data, not code: comma-separated ranges, each
 * `FROM <FIXED` (FROM inclusive, FIXED exclusive, FROM may be left out),
 * in the vendor's own version numbers: '8.5 <9.8p1' or '<4.4p1'. Ranges are
 * written from the vendors' advisories ("fixed in" releases per branch).
 * The release to upgrade to is computed from them (version-finding.ts:
 * upgradeTarget), so a range's FIXED must be a real release.
 * `cve` may name several CVEs sharing one range.
 */
export interface VersionRow {
  readonly cve: string;
  readonly risk: Risk;
  readonly title: string;
  readonly affected: string;
}

export interface ProductTable {
  readonly product: ProductKey;
  /** Human name used in titles and details. */
  readonly name: string;
  readonly category: Family;
  /** Added to every finding, e.g. when the version does not show the patch level. */
  readonly caveat?: string;
  /**
   * The fix sentence when "Upgrade <name> to <computed release> or later"
   * does not fit (IIS: the version names a Windows release, not a patch).
   */
  readonly upgrade?: string;
  readonly rows: readonly VersionRow[];
}

export const VERSION_TABLE: readonly ProductTable[] = [...WEB_TABLES, ...REMOTE_TABLES, ...MAIL_TABLES, ...DATA_TABLES];
