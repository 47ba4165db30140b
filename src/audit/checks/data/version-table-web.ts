import { APACHE } from './version-table-apache.ts';
import { OPENSSL, PHP } from './version-table-libs.ts';
import type { ProductTable } from './version-table.ts';

/** nginx.org/en/security_advisories.html: "vulnerable" and "not vulnerable" per branch. */
const NGINX: ProductTable = {
  product: 'nginx',
  name: 'nginx',
  category: 'Web Servers',
  rows: [
    { cve: 'CVE-2021-23017', risk: 'high', title: 'Resolver 1-byte memory overwrite', affected: '0.6.18 <1.20.1' },
    { cve: 'CVE-2013-2028', risk: 'high', title: 'Chunked transfer encoding stack overflow', affected: '1.3.9 <1.4.1' },
    {
      cve: 'CVE-2017-7529',
      risk: 'high',
      title: 'Range filter integer overflow (memory disclosure)',
      affected: '0.5.6 <1.12.1, 1.13.0 <1.13.3',
    },
    {
      cve: 'CVE-2019-9511 CVE-2019-9513 CVE-2019-9516',
      risk: 'medium',
      title: 'HTTP/2 excessive CPU and memory use',
      affected: '1.9.5 <1.16.1, 1.17.0 <1.17.3',
    },
    {
      cve: 'CVE-2018-16843 CVE-2018-16844',
      risk: 'medium',
      title: 'HTTP/2 excessive memory and CPU use',
      affected: '1.9.5 <1.14.1, 1.15.0 <1.15.6',
    },
    {
      cve: 'CVE-2018-16845',
      risk: 'medium',
      title: 'ngx_http_mp4_module memory disclosure',
      affected: '1.0.7 <1.14.1, 1.15.0 <1.15.6',
    },
    {
      cve: 'CVE-2016-4450',
      risk: 'medium',
      title: 'NULL pointer dereference writing client request body',
      affected: '1.3.9 <1.10.1, 1.11.0 <1.11.1',
    },
    {
      cve: 'CVE-2016-0742 CVE-2016-0746 CVE-2016-0747',
      risk: 'high',
      title: 'Resolver crash, use-after-free and CNAME loop',
      affected: '0.6.18 <1.8.1, 1.9.0 <1.9.10',
    },
    {
      cve: 'CVE-2014-0133',
      risk: 'high',
      title: 'SPDY heap buffer overflow',
      affected: '1.3.15 <1.4.7, 1.5.0 <1.5.12',
    },
    { cve: 'CVE-2014-0088', risk: 'high', title: 'SPDY memory corruption', affected: '1.5.10 <1.5.11' },
    {
      cve: 'CVE-2013-4547',
      risk: 'high',
      title: 'Request line space character access-restriction bypass',
      affected: '0.8.41 <1.4.4, 1.5.0 <1.5.7',
    },
    {
      cve: 'CVE-2014-3616',
      risk: 'medium',
      title: 'SSL session reuse across virtual hosts',
      affected: '0.5.6 <1.6.2, 1.7.0 <1.7.5',
    },
    {
      cve: 'CVE-2014-3556',
      risk: 'medium',
      title: 'STARTTLS command injection in mail proxy',
      affected: '1.5.6 <1.6.1, 1.7.0 <1.7.4',
    },
    {
      cve: 'CVE-2012-1180',
      risk: 'medium',
      title: 'Memory disclosure with specially crafted backend responses',
      affected: '0.1.0 <1.0.14, 1.1.0 <1.1.17',
    },
    {
      cve: 'CVE-2012-2089',
      risk: 'high',
      title: 'ngx_http_mp4_module buffer overflow',
      affected: '1.0.7 <1.0.15, 1.1.3 <1.1.19',
    },
    { cve: 'CVE-2009-2629', risk: 'high', title: 'Buffer underflow on crafted URI', affected: '0.1.0 <0.8.15' },
    { cve: 'CVE-2009-3896', risk: 'medium', title: 'NULL pointer dereference on long URI', affected: '0.1.0 <0.8.14' },
    { cve: 'CVE-2019-20372', risk: 'medium', title: 'error_page request smuggling', affected: '<1.17.7' },
    {
      cve: 'CVE-2022-41741',
      risk: 'high',
      title: 'ngx_http_mp4_module memory corruption',
      affected: '1.1.3 <1.22.1, 1.23.0 <1.23.2',
    },
    {
      cve: 'CVE-2022-41742',
      risk: 'high',
      title: 'ngx_http_mp4_module memory disclosure',
      affected: '1.1.3 <1.22.1, 1.23.0 <1.23.2',
    },
    { cve: 'CVE-2023-44487', risk: 'high', title: 'HTTP/2 rapid reset denial of service', affected: '1.9.5 <1.25.3' },
    {
      cve: 'CVE-2024-24989 CVE-2024-24990',
      risk: 'medium',
      title: 'HTTP/3 NULL dereference and use-after-free',
      affected: '1.25.0 <1.25.4',
    },
    {
      cve: 'CVE-2024-31079 CVE-2024-32760 CVE-2024-34161 CVE-2024-35200',
      risk: 'medium',
      title: 'HTTP/3 memory corruption and disclosure',
      affected: '1.25.0 <1.26.1',
    },
    {
      cve: 'CVE-2024-7347',
      risk: 'medium',
      title: 'ngx_http_mp4_module over-read',
      affected: '1.5.13 <1.26.2, 1.27.0 <1.27.1',
    },
    {
      cve: 'CVE-2025-23419',
      risk: 'medium',
      title: 'TLS session resumption bypasses client certificate checks',
      affected: '1.11.4 <1.26.3, 1.27.0 <1.27.4',
    },
  ],
};

/**
 * IIS versions name a Windows release, not a patch level: a patched server
 * shows the same version, so these rows only say the release is exposed.
 */
const IIS: ProductTable = {
  product: 'iis',
  name: 'Microsoft IIS',
  category: 'Web Servers',
  caveat: 'IIS reports the Windows release, not its patch level: check that the security update is installed.',
  upgrade:
    'Install the Microsoft security updates of the bulletins named (Windows Update), or move the site to a supported Windows Server release.',
  rows: [
    {
      cve: 'CVE-2017-7269',
      risk: 'high',
      title: 'IIS 6.0 WebDAV ScStoragePathFromUrl buffer overflow',
      affected: '6.0 <7.0',
    },
    {
      cve: 'CVE-2009-1535',
      risk: 'high',
      title: 'IIS WebDAV Unicode authentication bypass (MS09-020)',
      affected: '5.0 <7.0',
    },
    { cve: 'CVE-2009-3023', risk: 'high', title: 'IIS FTP NLST buffer overflow (MS09-053)', affected: '5.0 <7.0' },
    { cve: 'CVE-2015-1635', risk: 'high', title: 'HTTP.sys Range header RCE (MS15-034)', affected: '7.5 <10.0' },
    {
      cve: 'CVE-2010-2730',
      risk: 'high',
      title: 'IIS 7.5 FastCGI request header buffer overflow (MS10-065)',
      affected: '7.5 <7.6',
    },
    {
      cve: 'CVE-2010-3972',
      risk: 'high',
      title: 'IIS 7.x FTP service Telnet IAC heap overflow (MS11-004)',
      affected: '7.0 <8.0',
    },
    { cve: 'CVE-2000-0884', risk: 'high', title: 'Unicode directory traversal (MS00-078)', affected: '4.0 <6.0' },
    { cve: 'CVE-2001-0333', risk: 'high', title: 'Double-decode directory traversal (MS01-026)', affected: '4.0 <6.0' },
    { cve: 'CVE-2001-0500', risk: 'high', title: 'idq.dll buffer overflow, Code Red (MS01-033)', affected: '4.0 <6.0' },
  ],
};

/** redmine.lighttpd.net security announcements. */
const LIGHTTPD: ProductTable = {
  product: 'lighttpd',
  name: 'lighttpd',
  category: 'Web Servers',
  rows: [
    {
      cve: 'CVE-2022-22707',
      risk: 'medium',
      title: 'mod_extforward stack overflow (32-bit)',
      affected: '1.4.46 <1.4.64',
    },
    {
      cve: 'CVE-2022-41556',
      risk: 'medium',
      title: 'mod_fastcgi / mod_scgi resource leak denial of service',
      affected: '1.4.56 <1.4.67',
    },
    { cve: 'CVE-2019-11072', risk: 'high', title: 'mod_alias_physical_handler integer overflow', affected: '<1.4.54' },
    { cve: 'CVE-2018-19052', risk: 'high', title: 'mod_alias path traversal', affected: '<1.4.50' },
    { cve: 'CVE-2014-2323', risk: 'high', title: 'mod_mysql_vhost SQL injection via Host header', affected: '<1.4.35' },
    { cve: 'CVE-2014-2324', risk: 'high', title: 'mod_evhost / mod_simple_vhost path traversal', affected: '<1.4.35' },
    { cve: 'CVE-2015-3200', risk: 'medium', title: 'mod_auth log injection', affected: '<1.4.36' },
    { cve: 'CVE-2013-4559', risk: 'medium', title: 'Unchecked setuid/setgid return values', affected: '<1.4.33' },
    {
      cve: 'CVE-2011-4362',
      risk: 'medium',
      title: 'base64_decode out-of-bounds read in http_auth',
      affected: '<1.4.30',
    },
    { cve: 'CVE-2010-0295', risk: 'medium', title: 'Slow request memory exhaustion', affected: '<1.4.26' },
  ],
};

/**
 * acme.com/software/mini_httpd (its release notes name the CVEs each release fixed). Debian 11, 12 and 13 ship
 * 1.30, the release that fixed the arbitrary file read.
 */
const MINI_HTTPD: ProductTable = {
  product: 'mini_httpd',
  name: 'mini_httpd',
  category: 'Web Servers',
  rows: [
    { cve: 'CVE-2018-18778', risk: 'medium', title: 'Arbitrary file read (empty Host header)', affected: '<1.30' },
  ],
};

export const WEB_TABLES: readonly ProductTable[] = [APACHE, NGINX, IIS, LIGHTTPD, MINI_HTTPD, OPENSSL, PHP];
