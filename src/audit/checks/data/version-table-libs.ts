import type { ProductTable } from './version-table.ts';

/**
 * OpenSSL as named in Server headers (mod_ssl adds `OpenSSL/1.0.2k`). Letter
 * releases order after the number: 1.0.1 < 1.0.1a < 1.0.1g. From
 * openssl-library.org/news/vulnerabilities.
 */
export const OPENSSL: ProductTable = {
  product: 'openssl',
  name: 'OpenSSL',
  category: 'SSL/TLS',
  rows: [
    {
      cve: 'CVE-2014-0160',
      risk: 'high',
      title: 'Heartbleed: TLS heartbeat memory disclosure',
      affected: '1.0.1 <1.0.1g',
    },
    {
      cve: 'CVE-2014-0224',
      risk: 'high',
      title: 'CCS injection man-in-the-middle',
      affected: '<0.9.8za, 1.0.0 <1.0.0m, 1.0.1 <1.0.1h',
    },
    { cve: 'CVE-2014-3512', risk: 'high', title: 'SRP buffer overflow', affected: '1.0.1 <1.0.1i' },
    {
      cve: 'CVE-2012-2110',
      risk: 'high',
      title: 'asn1_d2i_read_bio memory corruption',
      affected: '<0.9.8v, 1.0.0 <1.0.0i, 1.0.1 <1.0.1a',
    },
    { cve: 'CVE-2009-3555', risk: 'medium', title: 'TLS renegotiation prefix injection', affected: '<0.9.8l' },
    {
      cve: 'CVE-2015-0204',
      risk: 'medium',
      title: 'FREAK: RSA export key downgrade',
      affected: '<0.9.8zd, 1.0.0 <1.0.0p, 1.0.1 <1.0.1k',
    },
    { cve: 'CVE-2015-0291', risk: 'high', title: 'ClientHello sigalgs denial of service', affected: '1.0.2 <1.0.2a' },
    {
      cve: 'CVE-2015-1793',
      risk: 'high',
      title: 'Alternative chains certificate forgery',
      affected: '1.0.1n <1.0.1p, 1.0.2b <1.0.2d',
    },
    {
      cve: 'CVE-2016-0800',
      risk: 'high',
      title: 'DROWN: cross-protocol attack via SSLv2',
      affected: '1.0.1 <1.0.1s, 1.0.2 <1.0.2g',
    },
    {
      cve: 'CVE-2016-2107',
      risk: 'medium',
      title: 'AES-NI CBC padding oracle',
      affected: '1.0.1 <1.0.1t, 1.0.2 <1.0.2h',
    },
    {
      cve: 'CVE-2016-2108',
      risk: 'high',
      title: 'ASN.1 encoder negative zero memory corruption',
      affected: '1.0.1 <1.0.1o, 1.0.2 <1.0.2c',
    },
    {
      cve: 'CVE-2016-2105 CVE-2016-2106',
      risk: 'high',
      title: 'EVP_EncodeUpdate / EVP_EncryptUpdate overflow',
      affected: '1.0.1 <1.0.1t, 1.0.2 <1.0.2h',
    },
    {
      cve: 'CVE-2016-6304',
      risk: 'high',
      title: 'OCSP status request extension memory growth',
      affected: '1.0.1 <1.0.1u, 1.0.2 <1.0.2i, 1.1.0 <1.1.0a',
    },
    { cve: 'CVE-2016-6309', risk: 'high', title: 'statem use-after-free after realloc', affected: '1.1.0a <1.1.0b' },
    { cve: 'CVE-2020-1967', risk: 'high', title: 'SSL_check_chain NULL dereference', affected: '1.1.1d <1.1.1g' },
    {
      cve: 'CVE-2021-3449',
      risk: 'medium',
      title: 'Renegotiation ClientHello NULL dereference',
      affected: '1.1.1 <1.1.1k',
    },
    {
      cve: 'CVE-2021-3450',
      risk: 'high',
      title: 'CA certificate check bypass with X509_V_FLAG_X509_STRICT',
      affected: '1.1.1h <1.1.1k',
    },
    { cve: 'CVE-2021-3711', risk: 'high', title: 'SM2 decryption buffer overflow', affected: '1.1.1 <1.1.1l' },
    {
      cve: 'CVE-2022-0778',
      risk: 'high',
      title: 'BN_mod_sqrt infinite loop on crafted certificate',
      affected: '1.0.2 <1.0.2zd, 1.1.1 <1.1.1n, 3.0.0 <3.0.2',
    },
    {
      cve: 'CVE-2022-1292',
      risk: 'medium',
      title: 'c_rehash script command injection',
      affected: '1.0.2 <1.0.2ze, 1.1.1 <1.1.1o, 3.0.0 <3.0.3',
    },
    {
      cve: 'CVE-2022-3602 CVE-2022-3786',
      risk: 'high',
      title: 'X.509 email address buffer overflows',
      affected: '3.0.0 <3.0.7',
    },
    {
      cve: 'CVE-2023-0286',
      risk: 'high',
      title: 'X.400 address type confusion in GENERAL_NAME',
      affected: '1.0.2 <1.0.2zg, 1.1.1 <1.1.1t, 3.0.0 <3.0.8',
    },
    {
      cve: 'CVE-2023-0464',
      risk: 'medium',
      title: 'Certificate policy constraints excessive resource use',
      affected: '1.0.2 <1.0.2zh, 1.1.1 <1.1.1u, 3.0.0 <3.0.9, 3.1.0 <3.1.1',
    },
  ],
};

/** PHP from X-Powered-By; php.net ChangeLog "fixed in" per branch. */
export const PHP: ProductTable = {
  product: 'php',
  name: 'PHP',
  category: 'Web Servers',
  rows: [
    {
      cve: 'CVE-2012-1823',
      risk: 'high',
      title: 'php-cgi query string argument injection',
      affected: '<5.3.12, 5.4.0 <5.4.2',
    },
    {
      cve: 'CVE-2019-11043',
      risk: 'high',
      title: 'PHP-FPM env_path_info underflow RCE (with nginx)',
      affected: '7.1.0 <7.1.33, 7.2.0 <7.2.24, 7.3.0 <7.3.11',
    },
    {
      cve: 'CVE-2024-4577',
      risk: 'high',
      title: 'php-cgi argument injection on Windows (best-fit)',
      affected: '<8.1.29, 8.2.0 <8.2.20, 8.3.0 <8.3.8',
    },
    {
      cve: 'CVE-2024-8926',
      risk: 'high',
      title: 'php-cgi argument injection (bypass of CVE-2024-4577 fix)',
      affected: '<8.1.30, 8.2.0 <8.2.24, 8.3.0 <8.3.12',
    },
    {
      cve: 'CVE-2024-8927',
      risk: 'high',
      title: 'cgi.force_redirect bypass',
      affected: '<8.1.30, 8.2.0 <8.2.24, 8.3.0 <8.3.12',
    },
    {
      cve: 'CVE-2015-0273',
      risk: 'high',
      title: 'unserialize() use-after-free in DateTimeZone',
      affected: '<5.4.38, 5.5.0 <5.5.22, 5.6.0 <5.6.6',
    },
    {
      cve: 'CVE-2016-7124',
      risk: 'high',
      title: 'unserialize() invalid object handling',
      affected: '<5.6.25, 7.0.0 <7.0.10',
    },
    {
      cve: 'CVE-2018-19518',
      risk: 'high',
      title: 'imap_open() command injection',
      affected: '<5.6.39, 7.0.0 <7.0.33, 7.1.0 <7.1.25, 7.2.0 <7.2.13',
    },
    {
      cve: 'CVE-2021-21708',
      risk: 'high',
      title: 'FILTER_VALIDATE_FLOAT use-after-free',
      affected: '<7.4.28, 8.0.0 <8.0.17, 8.1.0 <8.1.4',
    },
    {
      cve: 'CVE-2022-31625',
      risk: 'high',
      title: 'pgsql uninitialized array free',
      affected: '<7.4.30, 8.0.0 <8.0.20, 8.1.0 <8.1.7',
    },
    {
      cve: 'CVE-2022-31626',
      risk: 'high',
      title: 'mysqlnd password buffer overflow',
      affected: '<7.4.30, 8.0.0 <8.0.20, 8.1.0 <8.1.7',
    },
    {
      cve: 'CVE-2023-3824',
      risk: 'high',
      title: 'phar directory entry buffer overflow',
      affected: '<8.0.30, 8.1.0 <8.1.22, 8.2.0 <8.2.9',
    },
    {
      cve: 'CVE-2024-2756',
      risk: 'medium',
      title: '__Host-/__Secure- cookie prefix bypass',
      affected: '<8.1.28, 8.2.0 <8.2.18, 8.3.0 <8.3.5',
    },
    {
      cve: 'CVE-2024-3096',
      risk: 'medium',
      title: 'password_verify() accepts password with leading NUL',
      affected: '<8.1.28, 8.2.0 <8.2.18, 8.3.0 <8.3.5',
    },
  ],
};
