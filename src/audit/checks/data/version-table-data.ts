import type { ProductTable } from './version-table.ts';

/** MySQL from the handshake version; Oracle CPU "and prior" per branch. */
const MYSQL: ProductTable = {
  product: 'mysql',
  name: 'MySQL',
  category: 'Databases',
  rows: [
    {
      cve: 'CVE-2012-2122',
      risk: 'high',
      title: 'memcmp authentication bypass',
      affected: '5.1.0 <5.1.63, 5.5.0 <5.5.24, 5.6.0 <5.6.6',
    },
    {
      cve: 'CVE-2012-5611',
      risk: 'high',
      title: 'acl_get stack buffer overflow',
      affected: '5.1.0 <5.1.67, 5.5.0 <5.5.29',
    },
    {
      cve: 'CVE-2016-6662',
      risk: 'high',
      title: 'Malicious my.cnf remote code execution',
      affected: '<5.5.52, 5.6.0 <5.6.33, 5.7.0 <5.7.15',
    },
    {
      cve: 'CVE-2016-6663',
      risk: 'high',
      title: 'Race condition privilege escalation (local)',
      affected: '<5.5.52, 5.6.0 <5.6.33, 5.7.0 <5.7.15',
    },
    { cve: 'CVE-2015-3152', risk: 'medium', title: 'BACKRONYM: TLS not enforced by clients', affected: '<5.7.3' },
    {
      cve: 'CVE-2017-3599',
      risk: 'high',
      title: 'Pre-authentication denial of service',
      affected: '5.6.0 <5.6.36, 5.7.0 <5.7.18',
    },
    {
      cve: 'CVE-2018-2562',
      risk: 'medium',
      title: 'Partition denial of service and data change',
      affected: '<5.5.59, 5.6.0 <5.6.39, 5.7.0 <5.7.20',
    },
    {
      cve: 'CVE-2020-14812',
      risk: 'medium',
      title: 'Server Locking denial of service',
      affected: '<5.6.50, 5.7.0 <5.7.32, 8.0.0 <8.0.22',
    },
  ],
};

/** MariaDB announces itself as 5.5.5-10.x.y-MariaDB; rows use the 10.x.y part. */
const MARIADB: ProductTable = {
  product: 'mariadb',
  name: 'MariaDB',
  category: 'Databases',
  rows: [
    {
      cve: 'CVE-2012-2122',
      risk: 'high',
      title: 'memcmp authentication bypass',
      affected: '5.1.0 <5.1.62, 5.2.0 <5.2.12, 5.3.0 <5.3.6, 5.5.0 <5.5.23',
    },
    {
      cve: 'CVE-2016-6662',
      risk: 'high',
      title: 'Malicious my.cnf remote code execution',
      affected: '<5.5.51, 10.0.0 <10.0.27, 10.1.0 <10.1.17',
    },
    {
      cve: 'CVE-2016-6663',
      risk: 'high',
      title: 'Race condition privilege escalation (local)',
      affected: '<5.5.52, 10.0.0 <10.0.28, 10.1.0 <10.1.18',
    },
    {
      cve: 'CVE-2021-27928',
      risk: 'high',
      title: 'wsrep_provider OS command execution',
      affected: '10.2.0 <10.2.37, 10.3.0 <10.3.28, 10.4.0 <10.4.18, 10.5.0 <10.5.9',
    },
  ],
};

/** Redis from INFO (redis_version:); fixed releases per branch from GitHub advisories. */
const REDIS: ProductTable = {
  product: 'redis',
  name: 'Redis',
  category: 'Databases',
  rows: [
    {
      cve: 'CVE-2025-49844',
      risk: 'high',
      title: 'RediShell: Lua use-after-free remote code execution',
      affected: '<6.2.20, 7.0.0 <7.2.11, 7.4.0 <7.4.6, 8.0.0 <8.0.4, 8.2.0 <8.2.2',
    },
    {
      cve: 'CVE-2024-46981',
      risk: 'high',
      title: 'Lua garbage collector use-after-free',
      affected: '<6.2.17, 7.0.0 <7.2.7, 7.4.0 <7.4.2',
    },
    {
      cve: 'CVE-2024-31449',
      risk: 'high',
      title: 'Lua bit library stack overflow',
      affected: '<6.2.16, 7.0.0 <7.2.6, 7.4.0 <7.4.1',
    },
    {
      cve: 'CVE-2022-24834',
      risk: 'high',
      title: 'Lua cjson heap overflow',
      affected: '2.6.0 <6.0.20, 6.2.0 <6.2.13, 7.0.0 <7.0.12',
    },
    {
      cve: 'CVE-2023-28856',
      risk: 'medium',
      title: 'HINCRBYFLOAT crash',
      affected: '<6.0.19, 6.2.0 <6.2.12, 7.0.0 <7.0.11',
    },
    {
      cve: 'CVE-2021-32626',
      risk: 'high',
      title: 'Lua stack overflow heap corruption',
      affected: '<5.0.14, 6.0.0 <6.0.16, 6.2.0 <6.2.6',
    },
    {
      cve: 'CVE-2021-32627 CVE-2021-32628',
      risk: 'high',
      title: 'Streams / ziplist integer overflows',
      affected: '<5.0.14, 6.0.0 <6.0.16, 6.2.0 <6.2.6',
    },
    {
      cve: 'CVE-2021-32675',
      risk: 'high',
      title: 'Unauthenticated multibulk memory exhaustion',
      affected: '<5.0.14, 6.0.0 <6.0.16, 6.2.0 <6.2.6',
    },
    {
      cve: 'CVE-2021-32687 CVE-2021-41099',
      risk: 'high',
      title: 'intset / hash-max-ziplist and proto-max-bulk-len overflows',
      affected: '<5.0.14, 6.0.0 <6.0.16, 6.2.0 <6.2.6',
    },
    {
      cve: 'CVE-2021-29477',
      risk: 'high',
      title: 'STRALGO LCS integer overflow',
      affected: '6.0.0 <6.0.13, 6.2.0 <6.2.3',
    },
    {
      cve: 'CVE-2018-11218 CVE-2018-11219',
      risk: 'high',
      title: 'Lua cmsgpack / struct memory corruption',
      affected: '<3.2.12, 4.0.0 <4.0.10',
    },
    {
      cve: 'CVE-2016-8339',
      risk: 'high',
      title: 'CONFIG SET client-output-buffer-limit overflow',
      affected: '3.2.0 <3.2.4',
    },
    {
      cve: 'CVE-2015-4335',
      risk: 'high',
      title: 'Lua sandbox escape via loadstring bytecode',
      affected: '<2.8.21, 3.0.0 <3.0.2',
    },
  ],
};

/**
 * ISC BIND from version.bind. Patch releases order after the release:
 * 9.9.7 < 9.9.7-P1 < 9.9.8. From kb.isc.org "Versions affected".
 */
const BIND: ProductTable = {
  product: 'bind',
  name: 'ISC BIND',
  category: 'DNS',
  rows: [
    {
      cve: 'CVE-2008-1447',
      risk: 'high',
      title: 'Kaminsky cache poisoning (predictable source port)',
      affected: '<9.3.5-P1, 9.4.0 <9.4.2-P1, 9.5.0 <9.5.0-P1',
    },
    {
      cve: 'CVE-2015-5477',
      risk: 'high',
      title: 'TKEY query assertion failure (remote crash)',
      affected: '9.1.0 <9.9.7-P2, 9.10.0 <9.10.2-P3',
    },
    {
      cve: 'CVE-2016-2776',
      risk: 'high',
      title: 'buffer.c response assertion failure (remote crash)',
      affected: '9.0.0 <9.9.9-P3, 9.10.0 <9.10.4-P3',
    },
    {
      cve: 'CVE-2016-8864',
      risk: 'high',
      title: 'DNAME answer assertion failure',
      affected: '9.0.0 <9.9.9-P4, 9.10.0 <9.10.4-P4, 9.11.0 <9.11.0-P1',
    },
    {
      cve: 'CVE-2017-3143',
      risk: 'high',
      title: 'TSIG authentication bypass (zone transfer, update)',
      affected: '9.4.0 <9.9.10-P2, 9.10.0 <9.10.5-P2, 9.11.0 <9.11.1-P2',
    },
    {
      cve: 'CVE-2017-3145',
      risk: 'high',
      title: 'Use-after-free in DNSSEC validation',
      affected: '9.0.0 <9.9.11-P1, 9.10.0 <9.10.6-P1, 9.11.0 <9.11.2-P1',
    },
    {
      cve: 'CVE-2020-8616',
      risk: 'high',
      title: 'NXNSAttack: referral amplification',
      affected: '9.0.0 <9.11.19, 9.12.0 <9.12.4-P3, 9.14.0 <9.14.12, 9.16.0 <9.16.3',
    },
    {
      cve: 'CVE-2020-8617',
      risk: 'high',
      title: 'TSIG assertion failure (remote crash)',
      affected: '9.0.0 <9.11.19, 9.12.0 <9.12.4-P3, 9.14.0 <9.14.12, 9.16.0 <9.16.3',
    },
    {
      cve: 'CVE-2021-25215',
      risk: 'high',
      title: 'DNAME assertion failure',
      affected: '9.0.0 <9.11.31, 9.12.0 <9.16.15',
    },
    {
      cve: 'CVE-2021-25216',
      risk: 'high',
      title: 'GSS-TSIG SPNEGO buffer overflow',
      affected: '9.5.0 <9.11.31, 9.12.0 <9.16.15',
    },
    {
      cve: 'CVE-2022-2795',
      risk: 'medium',
      title: 'Large delegations degrade resolver performance',
      affected: '9.0.0 <9.16.33, 9.18.0 <9.18.7',
    },
    {
      cve: 'CVE-2022-3080',
      risk: 'high',
      title: 'Stale cache / CNAME assertion failure',
      affected: '9.16.14 <9.16.33, 9.18.0 <9.18.7',
    },
    {
      cve: 'CVE-2023-2828',
      risk: 'high',
      title: 'Cache size limit bypass',
      affected: '9.11.0 <9.16.42, 9.18.0 <9.18.16',
    },
    {
      cve: 'CVE-2023-50387',
      risk: 'high',
      title: 'KeyTrap: DNSSEC validation CPU exhaustion',
      affected: '9.0.0 <9.16.48, 9.18.0 <9.18.24',
    },
    {
      cve: 'CVE-2023-4408',
      risk: 'high',
      title: 'Message parsing CPU exhaustion',
      affected: '9.0.0 <9.16.48, 9.18.0 <9.18.24',
    },
    {
      cve: 'CVE-2024-1737',
      risk: 'high',
      title: 'Many records per name slow down the server',
      affected: '9.11.0 <9.18.28, 9.19.0 <9.20.0',
    },
    {
      cve: 'CVE-2024-11187',
      risk: 'high',
      title: 'Many records in additional section CPU exhaustion',
      affected: '9.11.0 <9.18.33, 9.20.0 <9.20.5',
    },
    {
      cve: 'CVE-2025-40778',
      risk: 'high',
      title: 'Cache poisoning with unsolicited answer records',
      affected: '9.11.0 <9.18.40, 9.20.0 <9.20.14, 9.21.0 <9.21.13',
    },
  ],
};

export const DATA_TABLES: readonly ProductTable[] = [MYSQL, MARIADB, REDIS, BIND];
