/**
 * CVSS facts of the CVEs our checks report, part B: NVD's CVSS v3.x vector and the base score it states
 * (its "Primary" metric; the CNA's where NVD has none), the v2 vector where no v3.x exists, and the
 * vendor's advisory. Read on 2026-11-23 from NVD's JSON 2.0 records (mirror: github.com/fkie-cad/nvd-json-data-feeds).
 *
 * Notes on reading: where NVD's own v3.x metric is v3.0 (no v3.1 "Primary"), that v3.0 vector is taken
 * (source 'nvd') rather than a secondary v3.1 one. source 'cna' marks the first secondary v3.1 metric
 * (for many old CVEs that is CISA's ADP entry, 134c704f-…, not the assigning CNA). `advisory` is the first
 * reference NVD tags "Vendor Advisory" on the vendor's own site; it is absent where no such reference
 * exists, where the flaw is in a protocol rather than one vendor's product, or where the record's
 * reference list was too long to read in full.
 */
import type { CveFacts } from './cvss-data-types.ts';

export const CVSS_B: Readonly<Record<string, CveFacts>> = {
  'CVE-1999-0385': { vector: null, v2: 'AV:N/AC:L/Au:N/C:C/I:C/A:C', v2score: 10.0, advisory: 'https://docs.microsoft.com/en-us/security-updates/securitybulletins/1999/ms99-009' },
  'CVE-1999-0497': { vector: null, v2: 'AV:N/AC:L/Au:N/C:N/I:N/A:N', v2score: 0.0 },
  'CVE-1999-0498': { vector: null, v2: 'AV:N/AC:L/Au:N/C:C/I:C/A:C', v2score: 10.0 },
  'CVE-1999-0502': { vector: null, v2: 'AV:N/AC:L/Au:N/C:P/I:P/A:P', v2score: 7.5 },
  'CVE-1999-0512': { vector: null, v2: 'AV:N/AC:L/Au:N/C:C/I:C/A:C', v2score: 10.0 },
  'CVE-1999-0517': { vector: 'CVSS:3.1/AV:L/AC:L/PR:N/UI:N/S:U/C:L/I:L/A:L', score: 5.9, source: 'cna' },
  'CVE-1999-0519': { vector: null, v2: 'AV:N/AC:L/Au:N/C:P/I:P/A:P', v2score: 7.5 },
  'CVE-1999-0526': { vector: null, v2: 'AV:N/AC:L/Au:N/C:C/I:C/A:C', v2score: 10.0 },
  'CVE-1999-0527': { vector: null, v2: 'AV:N/AC:L/Au:N/C:C/I:C/A:C', v2score: 10.0 },
  'CVE-1999-0531': { vector: null, rejected: true },
  'CVE-1999-0532': { vector: null, v2: 'AV:N/AC:L/Au:N/C:N/I:N/A:N', v2score: 0.0 },
  'CVE-1999-0619': { vector: null, rejected: true },
  'CVE-2001-0572': { vector: null, v2: 'AV:N/AC:L/Au:N/C:P/I:P/A:P', v2score: 7.5 },
  'CVE-2001-0645': { vector: null, v2: 'AV:N/AC:L/Au:N/C:P/I:P/A:P', v2score: 7.5 },
  'CVE-2001-1473': { vector: null, v2: 'AV:N/AC:L/Au:N/C:P/I:P/A:P', v2score: 7.5 },
  'CVE-2002-0013': { vector: null, v2: 'AV:N/AC:L/Au:N/C:C/I:C/A:C', v2score: 10.0 },
  'CVE-2006-0987': { vector: null, v2: 'AV:N/AC:L/Au:N/C:N/I:N/A:P', v2score: 5.0 },
  'CVE-2006-2369': { vector: null, v2: 'AV:N/AC:L/Au:N/C:P/I:P/A:P', v2score: 7.5 },
  'CVE-2008-5161': { vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N', score: 3.7, source: 'cna', advisory: 'http://www.ssh.com/company/news/article/953/' },
  'CVE-2010-4221': { vector: null, v2: 'AV:N/AC:L/Au:N/C:C/I:C/A:C', v2score: 10.0 },
  'CVE-2011-2523': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8, source: 'nvd' },
  'CVE-2011-3192': { vector: null, v2: 'AV:N/AC:L/Au:N/C:N/I:N/A:C', v2score: 7.8, advisory: 'https://issues.apache.org/bugzilla/show_bug.cgi?id=51714' },
  'CVE-2012-2122': { vector: null, v2: 'AV:N/AC:H/Au:N/C:P/I:P/A:P', v2score: 5.1 },
  'CVE-2013-2566': { vector: 'CVSS:3.0/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N', score: 5.9, source: 'nvd' },
  'CVE-2013-5211': { vector: null, v2: 'AV:N/AC:L/Au:N/C:N/I:N/A:P', v2score: 5.0 },
  'CVE-2014-0160': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', score: 7.5, source: 'nvd' },
  'CVE-2014-0224': { vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N', score: 7.4, source: 'nvd' },
  'CVE-2014-3566': { vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:C/C:L/I:N/A:N', score: 3.4, source: 'nvd' },
  'CVE-2015-0204': { vector: null, v2: 'AV:N/AC:M/Au:N/C:N/I:P/A:N', v2score: 4.3, advisory: 'https://www.openssl.org/news/secadv_20150108.txt' },
  'CVE-2015-1635': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8, source: 'cna', advisory: 'https://docs.microsoft.com/en-us/security-updates/securitybulletins/2015/ms15-034' },
  'CVE-2015-2808': { vector: null, v2: 'AV:N/AC:L/Au:N/C:P/I:N/A:N', v2score: 5.0 },
  'CVE-2015-3306': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H', score: 10.0, source: 'cna' },
  'CVE-2015-4000': { vector: 'CVSS:3.0/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:L/A:N', score: 3.7, source: 'nvd' },
  'CVE-2015-5477': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H', score: 7.5, source: 'cna' },
  'CVE-2016-2183': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', score: 7.5, source: 'nvd' },
  'CVE-2017-0143': { vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H', score: 8.8, source: 'nvd', advisory: 'https://portal.msrc.microsoft.com/en-US/security-guidance/advisory/CVE-2017-0143' },
  'CVE-2017-0144': { vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H', score: 8.8, source: 'nvd', advisory: 'https://portal.msrc.microsoft.com/en-US/security-guidance/advisory/CVE-2017-0144' },
  'CVE-2017-0145': { vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H', score: 8.8, source: 'nvd', advisory: 'https://portal.msrc.microsoft.com/en-US/security-guidance/advisory/CVE-2017-0145' },
  'CVE-2017-7529': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', score: 7.5, source: 'nvd', advisory: 'http://mailman.nginx.org/pipermail/nginx-announce/2017/000200.html' },
  'CVE-2017-7668': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H', score: 7.5, source: 'nvd' },
  'CVE-2018-15473': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N', score: 5.3, source: 'nvd' },
  'CVE-2018-1000115': { vector: 'CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H', score: 7.5, source: 'nvd' },
  'CVE-2019-0708': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8, source: 'nvd' },
  'CVE-2019-10149': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8, source: 'nvd', advisory: 'https://www.exim.org/static/doc/security/CVE-2019-10149.txt' },
  'CVE-2019-11043': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8, source: 'nvd' },
  'CVE-2019-16928': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8, source: 'nvd', advisory: 'https://bugs.exim.org/show_bug.cgi?id=2449' },
  'CVE-2020-8616': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:N/I:N/A:H', score: 8.6, source: 'nvd', advisory: 'https://kb.isc.org/docs/cve-2020-8616' },
  'CVE-2021-3449': { vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:N/A:H', score: 5.9, source: 'nvd' },
  'CVE-2021-3450': { vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N', score: 7.4, source: 'nvd' },
  'CVE-2021-23017': { vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:L', score: 7.7, source: 'nvd', advisory: 'http://mailman.nginx.org/pipermail/nginx-announce/2021/000300.html' },
  'CVE-2021-28041': { vector: 'CVSS:3.1/AV:N/AC:H/PR:L/UI:R/S:U/C:H/I:H/A:H', score: 7.1, source: 'nvd', advisory: 'https://www.openssh.com/security.html' },
  'CVE-2021-30047': { vector: null },
  'CVE-2021-32626': { vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H', score: 8.8, source: 'nvd', advisory: 'https://github.com/redis/redis/security/advisories/GHSA-p486-xggp-782c' },
  'CVE-2021-32627': { vector: 'CVSS:3.1/AV:N/AC:H/PR:L/UI:N/S:U/C:H/I:H/A:H', score: 7.5, source: 'nvd', advisory: 'https://github.com/redis/redis/security/advisories/GHSA-f434-69fm-g45v' },
  'CVE-2021-32628': { vector: 'CVSS:3.1/AV:N/AC:H/PR:L/UI:N/S:U/C:H/I:H/A:H', score: 7.5, source: 'nvd', advisory: 'https://github.com/redis/redis/security/advisories/GHSA-vw22-qm3h-49pr' },
  'CVE-2021-32675': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H', score: 7.5, source: 'nvd', advisory: 'https://github.com/redis/redis/security/advisories/GHSA-f6pw-v9gw-v64p' },
  'CVE-2021-32687': { vector: 'CVSS:3.1/AV:N/AC:H/PR:L/UI:N/S:U/C:H/I:H/A:H', score: 7.5, source: 'nvd', advisory: 'https://github.com/redis/redis/security/advisories/GHSA-m3mf-8x9w-r27q' },
  'CVE-2021-33515': { vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:N', score: 4.8, source: 'nvd', advisory: 'https://dovecot.org/security' },
  'CVE-2021-34798': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H', score: 7.5, source: 'nvd', advisory: 'http://httpd.apache.org/security/vulnerabilities_24.html' },
};
