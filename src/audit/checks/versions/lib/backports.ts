/**
 * Distribution packages backport security fixes without changing the
 * upstream version: Debian 12's OpenSSH says `OpenSSH_9.2p1
 * Debian-2+deb12u10` long after 9.2p1's flaws were fixed in it. Before a
 * version-table row becomes a finding, the sighting is placed (which
 * release's package?) and judged against that release's fixed versions
 * (backports-table.ts, dpkg ordering in backports-dpkg.ts).
 */
import { QOD } from '../../../engine/qod.ts';
import { compareDebian } from './backports-dpkg.ts';
import { FIXED, RELEASES, type Release } from '../../data/backports-table.ts';
import type { Sighting } from './version-extract.ts';
import type { ProductKey } from '../../data/version-table.ts';

export type Verdict =
  /** The detected package has every fix of the row: nothing to report. */
  { kind: 'fixed' } | { kind: 'report'; qod: number; note: string };

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The package revision written after the version: ' Debian-2+deb12u10'
 * (OpenSSH), '-1~deb12u2-Debian' (version.bind), '-MariaDB-0+deb12u1',
 * '-0ubuntu0.22.04.1' (MySQL). Only a revision of a distribution build
 * counts: '5.7.44-log' or '9.11.5-P4' are not revisions.
 */
export function revisionOf(seen: string, version: string, distro: string | null): string | null {
  const at = new RegExp(`${escapeRegExp(version)}(?![\\w.])`).exec(seen);
  if (!at) return null;
  const rest = seen.slice(at.index + version.length);
  const m = /^(?:[ _-](?:Debian|Ubuntu)-|-(?:MariaDB-)?)(\d[\w.+~]*)/i.exec(rest);
  if (!m) return null;
  const rev = m[1]!.replace(/[-.]+$/, '');
  return /deb\d+u\d|ubuntu/i.test(rev) || (distro !== null && /debian|ubuntu/i.test(distro)) ? rev : null;
}

/** The release a package was built for: by its revision, else by the upstream version the family ships. */
export function placeRelease(
  product: ProductKey,
  version: string,
  revision: string | null,
  distro: string | null,
): Release | null {
  if (revision) {
    const byRevision = RELEASES.find((r) => r.revision.test(revision));
    if (byRevision) return byRevision;
  }
  const family = /ubuntu/i.test(`${revision ?? ''} ${distro ?? ''}`)
    ? 'Ubuntu'
    : /debian/i.test(distro ?? '') || revision
      ? 'Debian'
      : null;
  const shipping = RELEASES.filter((r) => (!family || r.family === family) && r.ships[product]?.includes(version));
  return shipping.length === 1 ? shipping[0]! : null;
}

/** Releases that ship exactly this upstream version of the product. */
function shippedBy(product: ProductKey, version: string): Release[] {
  return RELEASES.filter((r) => r.ships[product]?.includes(version));
}

const uncertain = (note: string): Verdict => ({ kind: 'report', qod: QOD.backport, note });

/**
 * One sighting's CVEs sorted by what the package says about each (judge,
 * CVE by CVE): `open` are reported at the banner's QoD (with the
 * distribution's fixed revision when known), `undecided` at the backport
 * QoD, and fixed ones are dropped. `note` explains the undecided ones.
 */
export interface Triage {
  open: { cve: string; fixedIn: string | null }[];
  undecided: string[];
  /** Why the undecided CVEs cannot be decided ('' when none are). */
  note: string;
  /** The placed distribution package: its release ('Debian 12 (bookworm)') and version ('9.2p1-2+deb12u2'). */
  pkg: { release: string; version: string } | null;
}

export function triage(product: ProductKey, s: Sighting, cves: readonly string[]): Triage {
  const out: Triage = { open: [], undecided: [], note: '', pkg: null };
  const revision = revisionOf(s.seen, s.version, s.distro);
  const release = s.distro || revision ? placeRelease(product, s.version, revision, s.distro) : null;
  const fixes = release ? FIXED[product]?.[release.id] : undefined;
  if (release && revision && fixes) {
    const pkg = `${s.version}-${revision}`;
    out.pkg = { release: release.name, version: pkg };
    for (const cve of cves) {
      const fixed = fixes[cve];
      if (fixed === undefined) out.undecided.push(cve);
      else if (fixed !== 'not-affected' && compareDebian(pkg, fixed) < 0) out.open.push({ cve, fixedIn: fixed });
    }
    if (out.undecided.length) {
      out.note = `The ${release.name} package ${pkg} may have the fix backported; Vigil's table of ${release.name} fixes has no entry for ${out.undecided.join(', ')}: check the distribution's security tracker.`;
    }
    return out;
  }
  // Not placed with its fixes: every CVE gets the same verdict, the one judge gives.
  const v = judge(product, s, cves);
  if (v.kind === 'fixed') return out;
  if (v.qod >= QOD.banner) out.open = cves.map((cve) => ({ cve, fixedIn: null }));
  else {
    out.undecided = [...cves];
    out.note = v.note.trim();
  }
  return out;
}

/**
 * Judges one in-range version-table row (its CVEs) for one sighting.
 * Without any sign of a distribution build the banner is taken at its word
 * (QoD 80). With a placed package revision, the release's fixed versions
 * decide: every CVE fixed or not affected -> nothing; one not yet fixed ->
 * reported at QoD 80; one the table does not know -> QoD 30 (LOG).
 */
export function judge(product: ProductKey, s: Sighting, cves: readonly string[]): Verdict {
  const revision = revisionOf(s.seen, s.version, s.distro);
  if (!s.distro && !revision) {
    const shipping = shippedBy(product, s.version);
    if (shipping.length === 0) return { kind: 'report', qod: QOD.banner, note: '' };
    return uncertain(
      ` ${s.version} is exactly the version ${shipping.map((r) => r.name).join(', ')} ship${shipping.length === 1 ? 's' : ''}: most likely a distribution package, whose fixes are backported without a version change, so the version alone cannot decide.`,
    );
  }
  const release = placeRelease(product, s.version, revision, s.distro);
  const fixes = release ? FIXED[product]?.[release.id] : undefined;
  if (!release || !revision || !fixes) {
    const what = release ? `a ${release.name} package` : `a ${s.distro ?? 'distribution'} package`;
    return uncertain(
      ` This is ${what}${revision ? ` (revision ${revision})` : ' whose revision the banner does not show'}; distributions backport fixes without changing the version, and Vigil cannot tell whether this one has the fix: check the distribution's security tracker.`,
    );
  }
  const pkg = `${s.version}-${revision}`;
  const open: string[] = [];
  const unknown: string[] = [];
  for (const cve of cves) {
    const fixed = fixes[cve];
    if (fixed === undefined) unknown.push(cve);
    else if (fixed !== 'not-affected' && compareDebian(pkg, fixed) < 0) open.push(`${cve} (fixed in ${fixed})`);
  }
  if (open.length) {
    return {
      kind: 'report',
      qod: QOD.banner,
      note: ` The ${release.name} package ${pkg} predates the distribution's fix: ${open.join(', ')}.`,
    };
  }
  if (unknown.length) {
    return uncertain(
      ` The ${release.name} package ${pkg} may have the fix backported; Vigil's table of ${release.name} fixes has no entry for ${unknown.join(', ')}: check the distribution's security tracker.`,
    );
  }
  return { kind: 'fixed' };
}
