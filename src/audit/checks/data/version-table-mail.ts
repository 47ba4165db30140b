import type { ProductTable } from './version-table.ts';

/** Exim from exim.org/static/doc/security and the 21Nails (Qualys) advisory. */
const EXIM: ProductTable = {
  product: 'exim',
  name: 'Exim',
  category: 'Mail',
  rows: [
    {
      cve: 'CVE-2019-10149',
      risk: 'high',
      title: 'Return of the WIZard: deliver_message remote command execution',
      affected: '4.87 <4.92',
    },
    { cve: 'CVE-2019-13917', risk: 'high', title: '${sort} expansion remote code execution', affected: '4.85 <4.92.1' },
    { cve: 'CVE-2019-15846', risk: 'high', title: 'TLS SNI trailing backslash heap overflow', affected: '<4.92.2' },
    {
      cve: 'CVE-2019-16928',
      risk: 'high',
      title: 'string_vformat heap overflow via long EHLO',
      affected: '4.92 <4.92.3',
    },
    { cve: 'CVE-2018-6789', risk: 'high', title: 'base64d off-by-one remote code execution', affected: '<4.90.1' },
    {
      cve: 'CVE-2017-16943',
      risk: 'high',
      title: 'BDAT use-after-free remote code execution',
      affected: '4.88 <4.89.1',
    },
    { cve: 'CVE-2017-16944', risk: 'medium', title: 'BDAT infinite loop denial of service', affected: '4.88 <4.89.1' },
    {
      cve: 'CVE-2017-1000369',
      risk: 'medium',
      title: 'Stack Clash via repeated -p options (local)',
      affected: '<4.89.1',
    },
    { cve: 'CVE-2016-1531', risk: 'high', title: 'perl_startup local root', affected: '<4.86.2' },
    { cve: 'CVE-2016-9963', risk: 'medium', title: 'DKIM private key disclosure in bounces', affected: '4.69 <4.87.1' },
    {
      cve: 'CVE-2010-4344',
      risk: 'high',
      title: 'string_vformat heap overflow remote code execution',
      affected: '<4.70',
    },
    { cve: 'CVE-2010-4345', risk: 'high', title: 'Local root via alternate configuration file', affected: '<4.73' },
    {
      cve: 'CVE-2020-28017',
      risk: 'high',
      title: '21Nails: receive_add_recipient integer overflow',
      affected: '<4.94.2',
    },
    { cve: 'CVE-2020-28018', risk: 'high', title: '21Nails: tls-openssl use-after-free', affected: '<4.94.2' },
    { cve: 'CVE-2020-28019', risk: 'high', title: '21Nails: BDAT function pointer reset failure', affected: '<4.94.2' },
    { cve: 'CVE-2020-28020', risk: 'high', title: '21Nails: receive_msg header integer overflow', affected: '<4.94.2' },
    { cve: 'CVE-2020-28022', risk: 'high', title: '21Nails: extract_option heap out-of-bounds', affected: '<4.94.2' },
    { cve: 'CVE-2020-28023', risk: 'medium', title: '21Nails: smtp_setup_msg out-of-bounds read', affected: '<4.94.2' },
    { cve: 'CVE-2020-28024', risk: 'high', title: '21Nails: smtp_ungetc buffer underflow', affected: '<4.94.2' },
    {
      cve: 'CVE-2020-28025',
      risk: 'medium',
      title: '21Nails: pdkim_finish_bodyhash out-of-bounds read',
      affected: '<4.94.2',
    },
    { cve: 'CVE-2020-28026', risk: 'high', title: '21Nails: spool_read_header line truncation', affected: '<4.94.2' },
    {
      cve: 'CVE-2020-28007 CVE-2020-28008 CVE-2020-28015 CVE-2021-27216',
      risk: 'high',
      title: '21Nails: local privilege escalation via spool and log files',
      affected: '<4.94.2',
    },
    { cve: 'CVE-2022-37452', risk: 'high', title: 'host_name_lookup heap buffer overflow', affected: '<4.95' },
    { cve: 'CVE-2022-37451', risk: 'medium', title: 'Invalid free in pam_converse', affected: '<4.96' },
    { cve: 'CVE-2023-42115', risk: 'high', title: 'AUTH EXTERNAL out-of-bounds write', affected: '<4.96.1' },
    { cve: 'CVE-2023-42116', risk: 'high', title: 'NTLM challenge stack buffer overflow', affected: '<4.96.1' },
    { cve: 'CVE-2023-42114', risk: 'medium', title: 'NTLM challenge out-of-bounds read', affected: '<4.96.1' },
    { cve: 'CVE-2023-42117', risk: 'high', title: 'Proxy protocol memory corruption', affected: '<4.97' },
    { cve: 'CVE-2023-42119', risk: 'medium', title: 'dnsdb out-of-bounds read', affected: '<4.97' },
    { cve: 'CVE-2023-51766', risk: 'medium', title: 'SMTP smuggling', affected: '<4.97.1' },
    {
      cve: 'CVE-2024-39929',
      risk: 'high',
      title: 'RFC 2231 multiline filename bypasses attachment blocking',
      affected: '<4.98',
    },
    {
      cve: 'CVE-2026-45185',
      risk: 'high',
      title: 'Dead.Letter: BDAT use-after-free with GnuTLS builds',
      affected: '4.97 <4.99.3',
    },
    { cve: 'CVE-2025-30232', risk: 'medium', title: 'Debug mode use-after-free (local)', affected: '4.96 <4.98.2' },
  ],
};

const POSTFIX: ProductTable = {
  product: 'postfix',
  name: 'Postfix',
  category: 'Mail',
  rows: [
    {
      cve: 'CVE-2023-51764',
      risk: 'medium',
      title: 'SMTP smuggling',
      affected: '<3.5.23, 3.6.0 <3.6.13, 3.7.0 <3.7.9, 3.8.0 <3.8.4',
    },
    {
      cve: 'CVE-2011-1720',
      risk: 'high',
      title: 'Cyrus SASL authentication memory corruption',
      affected: '2.5.0 <2.5.13, 2.6.0 <2.6.10, 2.7.0 <2.7.4, 2.8.0 <2.8.3',
    },
    {
      cve: 'CVE-2011-0411',
      risk: 'medium',
      title: 'STARTTLS plaintext command injection',
      affected: '<2.4.16, 2.5.0 <2.5.12, 2.6.0 <2.6.9, 2.7.0 <2.7.3',
    },
    {
      cve: 'CVE-2008-2936',
      risk: 'medium',
      title: 'Local delivery to symlinked mailbox',
      affected: '<2.3.15, 2.4.0 <2.4.8, 2.5.0 <2.5.4',
    },
  ],
};

const SENDMAIL: ProductTable = {
  product: 'sendmail',
  name: 'Sendmail',
  category: 'Mail',
  rows: [
    { cve: 'CVE-2002-1337', risk: 'high', title: 'crackaddr header buffer overflow', affected: '5.2 <8.12.8' },
    { cve: 'CVE-2003-0161', risk: 'high', title: 'prescan() address parsing overflow', affected: '<8.12.9' },
    { cve: 'CVE-2003-0694', risk: 'high', title: 'prescan() remote buffer overflow', affected: '<8.12.10' },
    { cve: 'CVE-2006-0058', risk: 'high', title: 'Signal handler race remote code execution', affected: '<8.13.6' },
    { cve: 'CVE-2006-1173', risk: 'medium', title: 'Deeply nested MIME denial of service', affected: '<8.13.7' },
    { cve: 'CVE-2006-4434', risk: 'medium', title: 'Long header use-after-free', affected: '<8.13.8' },
    { cve: 'CVE-2009-4565', risk: 'medium', title: 'NUL byte in certificate Common Name', affected: '<8.14.4' },
    { cve: 'CVE-2014-3956', risk: 'medium', title: 'File descriptors leaked to delivery agents', affected: '<8.14.9' },
    { cve: 'CVE-2023-51765', risk: 'medium', title: 'SMTP smuggling', affected: '<8.18.0' },
  ],
};

/** Dovecot hides its version by default; rows apply when a banner shows it. */
const DOVECOT: ProductTable = {
  product: 'dovecot',
  name: 'Dovecot',
  category: 'Mail',
  rows: [
    {
      cve: 'CVE-2019-11500',
      risk: 'high',
      title: 'IMAP/ManageSieve NUL byte out-of-bounds write',
      affected: '<2.2.36.4, 2.3.0 <2.3.7.2',
    },
    {
      cve: 'CVE-2019-7524',
      risk: 'high',
      title: 'FTS / POP3-UIDL header buffer overflow',
      affected: '2.0.14 <2.2.36.3, 2.3.0 <2.3.5.1',
    },
    { cve: 'CVE-2019-10691', risk: 'high', title: 'JSON encoder assert crash (pre-auth)', affected: '2.3.0 <2.3.6' },
    { cve: 'CVE-2020-10957', risk: 'high', title: 'Submission NOOP NULL dereference', affected: '2.3.0 <2.3.10.1' },
    { cve: 'CVE-2020-10958', risk: 'high', title: 'Submission use-after-free', affected: '2.3.0 <2.3.10.1' },
    { cve: 'CVE-2020-12100', risk: 'high', title: 'Deeply nested MIME parts denial of service', affected: '<2.3.11.3' },
    { cve: 'CVE-2020-12673', risk: 'high', title: 'NTLM out-of-bounds read (pre-auth crash)', affected: '<2.3.11.3' },
    { cve: 'CVE-2020-12674', risk: 'high', title: 'RPA zero-length message crash (pre-auth)', affected: '<2.3.11.3' },
    { cve: 'CVE-2020-25275', risk: 'high', title: 'MIME parsing crash with many parts', affected: '2.3.11 <2.3.13' },
    {
      cve: 'CVE-2021-29157',
      risk: 'medium',
      title: 'OAuth2 JWT local file path traversal',
      affected: '2.3.11 <2.3.14.1',
    },
    { cve: 'CVE-2021-33515', risk: 'medium', title: 'Submission STARTTLS command injection', affected: '<2.3.14.1' },
    {
      cve: 'CVE-2022-30550',
      risk: 'medium',
      title: 'Privilege escalation with conflicting passdbs',
      affected: '<2.3.20',
    },
    { cve: 'CVE-2024-23184', risk: 'medium', title: 'Many address headers cause excessive CPU', affected: '<2.3.21.1' },
    {
      cve: 'CVE-2024-23185',
      risk: 'medium',
      title: 'Very large headers cause excessive resource use',
      affected: '<2.3.21.1',
    },
    {
      cve: 'CVE-2014-3430',
      risk: 'medium',
      title: 'SSL/TLS handshake connection exhaustion',
      affected: '1.1.0 <2.2.13',
    },
  ],
};

export const MAIL_TABLES: readonly ProductTable[] = [EXIM, POSTFIX, SENDMAIL, DOVECOT];
