/**
 * Quality of detection (QoD), as OpenVAS/Greenbone defines it: how sure a
 * finding is, 0–100. Values from Greenbone's QoD table ("Quality of
 * Detection" in the GVM manual): exploit / active confirmation 99–100,
 * remote_banner 80, remote_banner_unreliable 30 (products whose
 * distributions backport fixes).
 */
import type { Check, EntryType, Finding, Risk } from './types.ts';

export const QOD = Object.freeze({
  /** The check saw the weakness in the service's own behaviour (a login, a write, an answer). */
  active: 99,
  /** Read off a banner, header or version the service announces. */
  banner: 80,
  /** A version a distribution may have patched without changing it. */
  backport: 30,
});

/**
 * Below this QoD a finding is reported as LOG with risk `other`: evidence
 * worth reading, not an alarm. 70 is OpenVAS's default report filter
 * ("min_qod=70"), which hides results below it.
 */
export const QOD_THRESHOLD = 70;

/** A check's QoD: its own, or derived from whether it talks to the service. */
export function checkQod(check: Check): number {
  return check.qod ?? (check.categories.includes('passive') ? QOD.banner : QOD.active);
}

/** What the report shows for one finding: its QoD, and its entry type and risk after the threshold. */
export function settle(check: Check, finding: Finding): { qod: number; type: EntryType; risk: Risk } {
  const qod = finding.qod ?? checkQod(check);
  if (qod < QOD_THRESHOLD) return { qod, type: 'LOG', risk: 'other' };
  return { qod, type: finding.type ?? check.type, risk: finding.risk ?? check.risk };
}
