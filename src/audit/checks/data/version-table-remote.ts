import type { ProductTable } from './version-table.ts';

/**
 * OpenSSH from openssh.com/security.html and release notes. Bounds without
 * a pN suffix cover both OpenBSD (9.8) and portable (9.8p1) releases.
 */
const OPENSSH: ProductTable = {
  product: 'openssh',
  name: 'OpenSSH',
  category: 'Remote Access',
  rows: [
    {
      cve: 'CVE-2024-6387',
      risk: 'high',
      title: 'regreSSHion: sshd signal handler race, unauthenticated RCE',
      affected: '<4.4p1, 8.5p1 <9.8',
    },
    { cve: 'CVE-2006-5051', risk: 'high', title: 'sshd signal handler race condition', affected: '<4.4' },
    { cve: 'CVE-2006-5794', risk: 'medium', title: 'Privilege separation monitor signature bypass', affected: '<4.5' },
    { cve: 'CVE-2003-0693', risk: 'high', title: 'buffer_append memory corruption', affected: '<3.7.1' },
    { cve: 'CVE-2002-0639', risk: 'high', title: 'Challenge-response integer overflow', affected: '2.9.9 <3.4' },
    {
      cve: 'CVE-2001-0144',
      risk: 'high',
      title: 'SSH1 CRC-32 compensation attack detector overflow',
      affected: '<2.3.0',
    },
    { cve: 'CVE-2008-5161', risk: 'low', title: 'CBC mode plaintext recovery', affected: '<5.2' },
    { cve: 'CVE-2010-4478', risk: 'high', title: 'J-PAKE authentication bypass', affected: '<5.7' },
    { cve: 'CVE-2014-1692', risk: 'high', title: 'J-PAKE uninitialized memory', affected: '<6.5' },
    {
      cve: 'CVE-2014-2532',
      risk: 'medium',
      title: 'AcceptEnv wildcard environment restriction bypass',
      affected: '<6.6',
    },
    {
      cve: 'CVE-2015-5600',
      risk: 'high',
      title: 'keyboard-interactive MaxAuthTries bypass (brute force)',
      affected: '<7.0',
    },
    {
      cve: 'CVE-2015-6563 CVE-2015-6564',
      risk: 'medium',
      title: 'Privilege separation monitor spoofing and use-after-free',
      affected: '<7.0',
    },
    {
      cve: 'CVE-2016-0777 CVE-2016-0778',
      risk: 'medium',
      title: 'Client roaming information leak and overflow',
      affected: '5.4 <7.1p2',
    },
    { cve: 'CVE-2016-3115', risk: 'medium', title: 'X11 forwarding xauth command injection', affected: '<7.2p2' },
    { cve: 'CVE-2016-6210', risk: 'medium', title: 'User enumeration via password hashing timing', affected: '<7.3' },
    { cve: 'CVE-2016-6515', risk: 'high', title: 'Long password denial of service', affected: '<7.3' },
    { cve: 'CVE-2016-8858', risk: 'high', title: 'KEXINIT memory exhaustion', affected: '6.8 <7.4' },
    {
      cve: 'CVE-2016-10009',
      risk: 'high',
      title: 'ssh-agent loads PKCS#11 modules from outside trusted path',
      affected: '<7.4',
    },
    { cve: 'CVE-2016-10012', risk: 'high', title: 'Shared memory manager bounds check (privsep)', affected: '<7.4' },
    { cve: 'CVE-2018-15473', risk: 'medium', title: 'Username enumeration', affected: '<7.8' },
    {
      cve: 'CVE-2018-20685 CVE-2019-6109 CVE-2019-6111',
      risk: 'medium',
      title: 'scp client trusts server file names and permissions',
      affected: '<8.0',
    },
    { cve: 'CVE-2019-16905', risk: 'high', title: 'XMSS private key parsing integer overflow', affected: '7.7 <8.1' },
    { cve: 'CVE-2021-28041', risk: 'medium', title: 'ssh-agent double free', affected: '8.2 <8.5' },
    {
      cve: 'CVE-2021-41617',
      risk: 'medium',
      title: 'AuthorizedKeysCommand supplemental groups not dropped',
      affected: '6.2 <8.8',
    },
    { cve: 'CVE-2023-25136', risk: 'medium', title: 'Pre-authentication double free', affected: '9.1 <9.2' },
    {
      cve: 'CVE-2023-38408',
      risk: 'high',
      title: 'ssh-agent forwarded PKCS#11 remote code execution',
      affected: '<9.3p2',
    },
    { cve: 'CVE-2023-48795', risk: 'medium', title: 'Terrapin: SSH prefix truncation', affected: '<9.6' },
    { cve: 'CVE-2023-51385', risk: 'medium', title: 'OS command injection via user or host names', affected: '<9.6' },
    {
      cve: 'CVE-2025-26465',
      risk: 'medium',
      title: 'VerifyHostKeyDNS machine-in-the-middle',
      affected: '6.8p1 <9.9p2',
    },
    {
      cve: 'CVE-2025-26466',
      risk: 'medium',
      title: 'Pre-authentication memory and CPU denial of service',
      affected: '9.5p1 <9.9p2',
    },
  ],
};

const VSFTPD: ProductTable = {
  product: 'vsftpd',
  name: 'vsftpd',
  category: 'FTP',
  rows: [
    {
      cve: 'CVE-2011-2523',
      risk: 'high',
      title: 'vsftpd 2.3.4 backdoor: ":)" user name opens a root shell on port 6200',
      affected: '2.3.4 <2.3.5',
    },
    {
      cve: 'CVE-2011-0762',
      risk: 'medium',
      title: 'vsf_filename_passes_filter glob denial of service',
      affected: '<2.3.3',
    },
    { cve: 'CVE-2015-1419', risk: 'medium', title: 'deny_file restriction bypass', affected: '<3.0.3' },
    { cve: 'CVE-2021-30047', risk: 'medium', title: 'Connection limit denial of service', affected: '<3.0.4' },
    { cve: 'CVE-2021-3618', risk: 'medium', title: 'ALPACA: TLS cross-protocol attack', affected: '<3.0.4' },
  ],
};

/** ProFTPD letters are patch releases (1.3.5 < 1.3.5a), rcN pre-releases. */
const PROFTPD: ProductTable = {
  product: 'proftpd',
  name: 'ProFTPD',
  category: 'FTP',
  rows: [
    {
      cve: 'CVE-2015-3306',
      risk: 'high',
      title: 'mod_copy unauthenticated SITE CPFR/CPTO file copy',
      affected: '<1.3.5a',
    },
    {
      cve: 'CVE-2019-12815',
      risk: 'high',
      title: 'mod_copy arbitrary file copy without write permission',
      affected: '<1.3.5e, 1.3.6 <1.3.6b',
    },
    { cve: 'CVE-2010-4221', risk: 'high', title: 'Telnet IAC stack buffer overflow', affected: '1.3.2rc3 <1.3.3c' },
    { cve: 'CVE-2010-3867', risk: 'medium', title: 'mod_site_misc directory traversal', affected: '1.3.1 <1.3.3c' },
    { cve: 'CVE-2011-4130', risk: 'high', title: 'Response pool use-after-free', affected: '<1.3.3g' },
    { cve: 'CVE-2012-6095', risk: 'medium', title: 'MKD/XMKD symlink race', affected: '<1.3.4c' },
    { cve: 'CVE-2006-5815', risk: 'high', title: 'sreplace stack buffer overflow', affected: '<1.3.0a' },
    {
      cve: 'CVE-2019-18217',
      risk: 'medium',
      title: 'Invalid CWD infinite loop denial of service',
      affected: '<1.3.6c',
    },
    {
      cve: 'CVE-2020-9273',
      risk: 'high',
      title: 'Memory pool use-after-free on interrupted transfer',
      affected: '<1.3.6c, 1.3.7 <1.3.7a',
    },
    { cve: 'CVE-2021-46854', risk: 'medium', title: 'mod_radius memory disclosure', affected: '<1.3.7c' },
    {
      cve: 'CVE-2023-51713',
      risk: 'high',
      title: 'make_ftp_cmd out-of-bounds read denial of service',
      affected: '<1.3.8a',
    },
    { cve: 'CVE-2023-48795', risk: 'medium', title: 'Terrapin in mod_sftp', affected: '<1.3.8b' },
    { cve: 'CVE-2024-48651', risk: 'high', title: 'mod_sql supplemental group GID 0', affected: '<1.3.8c' },
  ],
};

/** Pure-FTPd rarely shows its version; rows apply when a banner does. */
const PUREFTPD: ProductTable = {
  product: 'pureftpd',
  name: 'Pure-FTPd',
  category: 'FTP',
  rows: [
    { cve: 'CVE-2011-1575', risk: 'medium', title: 'STARTTLS plaintext command injection', affected: '<1.0.30' },
    { cve: 'CVE-2011-0418', risk: 'medium', title: 'Glob expression denial of service', affected: '<1.0.32' },
    { cve: 'CVE-2019-20176', risk: 'high', title: 'Stack exhaustion in listdir', affected: '<1.0.50' },
    { cve: 'CVE-2020-9365', risk: 'high', title: 'pure_strcmp out-of-bounds read', affected: '<1.0.50' },
    { cve: 'CVE-2020-9274', risk: 'high', title: 'Uninitialized pointer in diraliases list', affected: '<1.0.50' },
    { cve: 'CVE-2021-40524', risk: 'high', title: 'Incorrect max_filesize quota enforcement', affected: '<1.0.50' },
  ],
};

export const REMOTE_TABLES: readonly ProductTable[] = [OPENSSH, VSFTPD, PROFTPD, PUREFTPD];
