import type { ProductKey } from './version-table.ts';

/**
 * Distribution releases whose packages Vigil can place, and the upstream
 * version each ships per product (the version its banners show). A bare
 * banner version equal to one of these is most likely that package, whose
 * fixes are backported without a version change (docs/audit-checks.md).
 */
export type ReleaseId = 'debian11' | 'debian12' | 'debian13' | 'ubuntu2204' | 'ubuntu2404';

export interface Release {
  readonly id: ReleaseId;
  readonly name: string;
  readonly family: 'Debian' | 'Ubuntu';
  /**
   * Matches a revision built for this release only (2+deb12u3, 0ubuntu0.22.04.1);
   * other revisions (Debian-7, 3ubuntu0.10) are placed by the upstream version shipped.
   */
  readonly revision: RegExp;
  readonly ships: Partial<Record<ProductKey, readonly string[]>>;
}

/** From packages.debian.org / packages.ubuntu.com, release and -security suites. */
export const RELEASES: readonly Release[] = [
  {
    id: 'debian11',
    name: 'Debian 11 (bullseye)',
    family: 'Debian',
    revision: /deb11u\d/,
    ships: {
      openssh: ['8.4p1'],
      nginx: ['1.18.0'],
      vsftpd: ['3.0.3'],
      proftpd: ['1.3.7a'],
      pureftpd: ['1.0.49'],
      exim: ['4.94.2'],
      postfix: ['3.5.25'],
      dovecot: ['2.3.13'],
      lighttpd: ['1.4.59'],
      redis: ['6.0.16'],
      php: ['7.4.33'],
      openssl: ['1.1.1w', '1.1.1n'],
    },
  },
  {
    id: 'debian12',
    name: 'Debian 12 (bookworm)',
    family: 'Debian',
    revision: /deb12u\d/,
    ships: {
      openssh: ['9.2p1'],
      nginx: ['1.22.1'],
      vsftpd: ['3.0.3'],
      proftpd: ['1.3.8'],
      pureftpd: ['1.0.50'],
      exim: ['4.96'],
      postfix: ['3.7.11', '3.7.10', '3.7.9'],
      dovecot: ['2.3.19.1'],
      lighttpd: ['1.4.69'],
      mini_httpd: ['1.30'],
      redis: ['7.0.15'],
      openssl: ['3.0.11', '3.0.13', '3.0.14', '3.0.15', '3.0.16', '3.0.17', '3.0.18', '3.0.19'],
    },
  },
  {
    id: 'debian13',
    name: 'Debian 13 (trixie)',
    family: 'Debian',
    revision: /deb13u\d/,
    ships: {
      openssh: ['10.0p1'],
      nginx: ['1.26.3'],
      vsftpd: ['3.0.5'],
      proftpd: ['1.3.8c'],
      exim: ['4.98.2'],
      dovecot: ['2.4.1'],
      lighttpd: ['1.4.79'],
    },
  },
  {
    id: 'ubuntu2204',
    name: 'Ubuntu 22.04 LTS (jammy)',
    family: 'Ubuntu',
    revision: /ubuntu\d*\.22\.04/,
    ships: {
      openssh: ['8.9p1'],
      nginx: ['1.18.0'],
      vsftpd: ['3.0.5'],
      proftpd: ['1.3.7c'],
      exim: ['4.95'],
      postfix: ['3.6.4'],
      dovecot: ['2.3.16'],
    },
  },
  {
    id: 'ubuntu2404',
    name: 'Ubuntu 24.04 LTS (noble)',
    family: 'Ubuntu',
    revision: /ubuntu\d*\.24\.04/,
    ships: {
      openssh: ['9.6p1'],
      nginx: ['1.24.0'],
      vsftpd: ['3.0.5'],
      proftpd: ['1.3.8b'],
      exim: ['4.97'],
      postfix: ['3.8.6'],
      dovecot: ['2.3.21'],
    },
  },
];

/**
 * The package version (without epoch) that fixed each CVE of the version
 * table in a release, or 'not-affected'. Only products whose banners show
 * the package revision can use it (OpenSSH: `OpenSSH_9.2p1 Debian-2+deb12u3`;
 * BIND's version.bind: `9.18.28-1~deb12u2-Debian`). A CVE missing here for
 * the release is "cannot decide": reported at QoD 30 as LOG, never dropped.
 *
 * Sources: security-tracker.debian.org (the `fixed_version` of each release
 * in https://security-tracker.debian.org/tracker/data/json), checked against
 * the packages' own changelog.Debian (`zcat /usr/share/doc/openssh-server/
 * changelog.Debian.gz`), and Ubuntu's USNs. Update path: docs/audit-checks.md.
 */
export const FIXED: Partial<Record<ProductKey, Partial<Record<ReleaseId, Readonly<Record<string, string>>>>>> = {
  openssh: {
    debian12: {
      'CVE-2023-38408': '9.2p1-2+deb12u1', // DSA-5461-1
      'CVE-2023-48795': '9.2p1-2+deb12u2', // DSA-5586-1
      'CVE-2023-51385': '9.2p1-2+deb12u2', // DSA-5586-1
      'CVE-2024-6387': '9.2p1-2+deb12u3', // DSA-5724-1: sshsigdie() made async-signal-safe
      'CVE-2025-26465': '9.2p1-2+deb12u5', // DSA-5868-1
      'CVE-2025-26466': 'not-affected', // introduced in 9.5p1
    },
    debian11: {
      'CVE-2021-28041': '8.4p1-5', // fixed before bullseye's release
      'CVE-2021-41617': '8.4p1-5+deb11u3', // DSA-5586-1
      'CVE-2023-48795': '8.4p1-5+deb11u3', // DSA-5586-1
      'CVE-2023-51385': '8.4p1-5+deb11u3', // DSA-5586-1
      'CVE-2024-6387': 'not-affected', // the regression came with 8.5p1
    },
    ubuntu2204: {
      'CVE-2023-38408': '8.9p1-3ubuntu0.3', // USN-6242-1
      'CVE-2023-48795': '8.9p1-3ubuntu0.5', // USN-6560-1
      'CVE-2023-51385': '8.9p1-3ubuntu0.6', // USN-6565-1
      'CVE-2024-6387': '8.9p1-3ubuntu0.10', // USN-6859-1
      'CVE-2025-26465': '8.9p1-3ubuntu0.11', // USN-7270-1
    },
    ubuntu2404: {
      'CVE-2024-6387': '9.6p1-3ubuntu13.3', // USN-6859-1
      'CVE-2025-26465': '9.6p1-3ubuntu13.8', // USN-7270-1
      'CVE-2025-26466': '9.6p1-3ubuntu13.8', // USN-7270-1
    },
  },
  bind: {
    debian12: {
      'CVE-2023-2828': '9.18.16-1~deb12u1', // DSA-5439-1
      'CVE-2023-50387': '9.18.24-1', // DSA-5621-1
      'CVE-2023-4408': '9.18.24-1', // DSA-5621-1
      'CVE-2024-1737': '9.18.28-1~deb12u1', // DSA-5734-1
      'CVE-2024-11187': '9.18.33-1~deb12u2', // DSA-5854-1
      'CVE-2025-40778': '9.18.41-1~deb12u1', // DSA-6018-1
    },
  },
};
