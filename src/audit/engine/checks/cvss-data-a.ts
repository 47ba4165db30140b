/**
 * CVSS facts of the CVEs our checks report, part A: NVD's CVSS v3.x vector and the base score it states
 * (its "Primary" metric; the CNA's where NVD has none), the v2 vector where no v3.x exists, and the
 * vendor's advisory. Read on 2026-11-23 from NVD's JSON 2.0 records (mirror: github.com/fkie-cad/nvd-json-data-feeds).
 *
 * `advisory` is the first reference NVD tags "Vendor Advisory" that lies on the vendor's own site; where
 * only a distribution's page carries that tag, that page; absent where NVD tags none of either kind
 * (aggregators such as secunia, vupen or securityfocus are never taken, whatever their tag).
 */
import type { CveFacts } from './cvss-data-types.ts';

export const CVSS_A: Readonly<Record<string, CveFacts>> = {
  'CVE-2000-0884': { vector: null, v2: 'AV:N/AC:L/Au:N/C:P/I:P/A:P', v2score: 7.5 },
  'CVE-2001-0144': { vector: null, v2: 'AV:N/AC:L/Au:N/C:C/I:C/A:C', v2score: 10 },
  'CVE-2001-0333': { vector: null, v2: 'AV:N/AC:L/Au:N/C:P/I:P/A:P', v2score: 7.5 },
  'CVE-2001-0500': { vector: null, v2: 'AV:N/AC:L/Au:N/C:C/I:C/A:C', v2score: 10 },
  'CVE-2002-0639': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8, source: 'nvd' },
  'CVE-2002-1337': { vector: null, v2: 'AV:N/AC:L/Au:N/C:C/I:C/A:C', v2score: 10, advisory: 'http://www.sendmail.org/8.12.8.html' },
  'CVE-2003-0161': { vector: null, v2: 'AV:N/AC:L/Au:N/C:C/I:C/A:C', v2score: 10, advisory: 'http://www.redhat.com/support/errata/RHSA-2003-120.html' },
  'CVE-2003-0693': { vector: null, v2: 'AV:N/AC:L/Au:N/C:C/I:C/A:C', v2score: 10 },
  'CVE-2003-0694': { vector: null, v2: 'AV:N/AC:L/Au:N/C:C/I:C/A:C', v2score: 10 },
  'CVE-2006-0058': { vector: null, v2: 'AV:N/AC:H/Au:N/C:C/I:C/A:C', v2score: 7.6, advisory: 'http://www.redhat.com/support/errata/RHSA-2006-0264.html' },
  'CVE-2006-1173': { vector: null, v2: 'AV:N/AC:L/Au:N/C:N/I:N/A:P', v2score: 5, advisory: 'http://sunsolve.sun.com/search/document.do?assetkey=1-26-102460-1' },
  'CVE-2006-4434': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H', score: 7.5, source: 'nvd' },
  'CVE-2006-5051': { vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 8.1, source: 'nvd' },
  'CVE-2006-5794': { vector: null, v2: 'AV:N/AC:L/Au:N/C:P/I:P/A:P', v2score: 7.5 },
  'CVE-2006-5815': { vector: null, v2: 'AV:N/AC:L/Au:N/C:C/I:C/A:C', v2score: 10 },
  'CVE-2008-1447': { vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:C/C:N/I:H/A:N', score: 6.8, source: 'nvd' },
  'CVE-2008-2936': { vector: null, v2: 'AV:L/AC:H/Au:N/C:C/I:C/A:C', v2score: 6.2 },
  'CVE-2008-5161': { vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N', score: 3.7, source: 'cna' },
  'CVE-2009-1535': { vector: null, v2: 'AV:N/AC:L/Au:N/C:P/I:P/A:P', v2score: 7.5, advisory: 'https://docs.microsoft.com/en-us/security-updates/securitybulletins/2009/ms09-020' },
  'CVE-2009-2629': { vector: null, v2: 'AV:N/AC:L/Au:N/C:P/I:P/A:P', v2score: 7.5, advisory: 'http://nginx.net/CHANGES' },
  'CVE-2009-3023': { vector: null, v2: 'AV:N/AC:L/Au:S/C:C/I:C/A:C', v2score: 9, advisory: 'https://docs.microsoft.com/en-us/security-updates/securitybulletins/2009/ms09-053' },
  'CVE-2009-3555': { vector: null, v2: 'AV:N/AC:M/Au:N/C:N/I:P/A:P', v2score: 5.8 },
  'CVE-2009-3896': { vector: null, v2: 'AV:N/AC:L/Au:N/C:N/I:N/A:P', v2score: 5 },
  'CVE-2009-4565': { vector: null, v2: 'AV:N/AC:L/Au:N/C:P/I:P/A:P', v2score: 7.5 },
  'CVE-2010-0295': { vector: null, v2: 'AV:N/AC:L/Au:N/C:N/I:N/A:P', v2score: 5 },
  'CVE-2010-2730': { vector: null, v2: 'AV:N/AC:M/Au:N/C:C/I:C/A:C', v2score: 9.3 },
  'CVE-2010-3867': { vector: null, v2: 'AV:N/AC:H/Au:S/C:C/I:C/A:C', v2score: 7.1 },
  'CVE-2010-3972': { vector: null, v2: 'AV:N/AC:L/Au:N/C:C/I:C/A:C', v2score: 10 },
  'CVE-2010-4221': { vector: null, v2: 'AV:N/AC:L/Au:N/C:C/I:C/A:C', v2score: 10 },
  'CVE-2010-4344': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8, source: 'nvd' },
  'CVE-2010-4345': { vector: 'CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H', score: 7.8, source: 'nvd', advisory: 'http://www.exim.org/lurker/message/20101207.215955.bb32d4f2.en.html' },
  'CVE-2010-4478': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8, source: 'cna' },
  'CVE-2011-0411': { vector: null, v2: 'AV:N/AC:M/Au:N/C:P/I:P/A:P', v2score: 6.8, advisory: 'http://www.postfix.org/CVE-2011-0411.html' },
  'CVE-2011-0418': { vector: null, v2: 'AV:N/AC:L/Au:S/C:N/I:N/A:P', v2score: 4 },
  'CVE-2011-0762': { vector: null, v2: 'AV:N/AC:L/Au:S/C:N/I:N/A:P', v2score: 4 },
  'CVE-2011-1575': { vector: null, v2: 'AV:N/AC:M/Au:N/C:P/I:P/A:N', v2score: 5.8 },
  'CVE-2011-1720': { vector: null, v2: 'AV:N/AC:M/Au:N/C:P/I:P/A:P', v2score: 6.8 },
  'CVE-2011-2523': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8, source: 'nvd' },
  'CVE-2011-3192': { vector: null, v2: 'AV:N/AC:L/Au:N/C:N/I:N/A:C', v2score: 7.8 },
  'CVE-2011-4130': { vector: null, v2: 'AV:N/AC:L/Au:S/C:C/I:C/A:C', v2score: 9 },
  'CVE-2011-4362': { vector: null, v2: 'AV:N/AC:L/Au:N/C:N/I:N/A:P', v2score: 5, advisory: 'http://download.lighttpd.net/lighttpd/security/lighttpd_sa_2011_01.txt' },
  'CVE-2012-0053': { vector: null, v2: 'AV:N/AC:M/Au:N/C:P/I:N/A:N', v2score: 4.3, advisory: 'http://httpd.apache.org/security/vulnerabilities_22.html' },
  'CVE-2012-1180': { vector: null, v2: 'AV:N/AC:L/Au:N/C:P/I:N/A:N', v2score: 5, advisory: 'http://nginx.org/en/security_advisories.html' },
  'CVE-2012-1823': { vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8, source: 'nvd' },
  'CVE-2012-2089': { vector: null, v2: 'AV:N/AC:M/Au:N/C:P/I:P/A:P', v2score: 6.8, advisory: 'http://nginx.org/en/security_advisories.html' },
  'CVE-2012-2110': { vector: null, v2: 'AV:N/AC:L/Au:N/C:P/I:P/A:P', v2score: 7.5 },
  'CVE-2012-2122': { vector: null, v2: 'AV:N/AC:H/Au:N/C:P/I:P/A:P', v2score: 5.1 },
  'CVE-2012-5611': { vector: null, v2: 'AV:N/AC:L/Au:S/C:P/I:P/A:P', v2score: 6.5 },
  'CVE-2012-6095': { vector: null, v2: 'AV:L/AC:H/Au:N/C:N/I:P/A:N', v2score: 1.2 },
};
