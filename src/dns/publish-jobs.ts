import { isMainThread } from 'node:worker_threads';
import { type HintPlan, type HintResult, publishHintOn } from './health/hint.ts';
import { capErrors, oversizedSets, type ZoneCaps } from './limits.ts';
import type { Peer } from './peers.ts';
import { notifyTargets } from './server/notify.ts';
import { testLoad } from './server/test-load.ts';
import { validateZone } from './validate.ts';
import { buildZone, type ZoneModel } from './zone.ts';

/**
 * The CPU-bound half of a publish (publish.ts has the store's half): the
 * checks of dnsPublish.php (spec section 3) over a version of a master zone,
 * and the version's text to store. Pure over its messages, so it runs the
 * same on the publish thread (publish-thread.ts, the default) or inline
 * (VIGIL_PUBLISH_INLINE=1, what bench/publish-stall.ts compares against).
 */
export interface CheckRequest {
  zone: string;
  serial: number;
  /**
   * The stored records as one JSON array of `{seq, type, data}`: a single
   * string crosses to the thread as one copy, where 100,000 parsed records
   * would be cloned object by object on the main thread.
   */
  records: string;
  /** How many records `records` holds (the runner's choice of thread, publish-thread.ts). */
  count: number;
  caps: ZoneCaps;
  /** Zone health's publish hint, run on the tested index when the version passes (health/hint.ts). */
  hint: HintPlan | null;
  /**
   * Tests only (test/publish-thread.test.ts): on the thread, the job waits, its checks done, until the
   * caller sets `hold[0]`: a publish held in progress, to show what the main thread answers meanwhile.
   */
  hold?: Int32Array;
}

export interface CheckReply {
  /** In the order publish has always given them: validation, test load, caps, oversized sets. */
  errors: string[];
  warnings: string[];
  /** Where the version would send NOTIFY: the main thread's egress fence says which it refuses. */
  notify: Peer[];
  /** The version as stored (`JSON.stringify` of its model, as before); null with errors (nothing is stored). */
  snapshot: string | null;
  /** The hint's outcome; null when nothing was asked or the version has errors. */
  hint: HintResult | null;
}

/** dnsBuildZone.php's job: the master file a publish now would write (zone.ts `buildZone`), nothing checked. */
export interface TextRequest {
  op: 'text';
  zone: string;
  serial: number;
  records: string;
  count: number;
}

/** A job of the publish thread: a version's checks, or its zone text. */
export type PublishJob = CheckRequest | TextRequest;

/** Runs either job (the thread's dispatch; `op` absent: a publish's checks). */
export function runJob(m: PublishJob): Promise<CheckReply> | string {
  return 'op' in m ? buildZone(requestModel(m)) : checkVersion(m);
}

/** Builds the model a request describes (the records' JSON parsed here, on the thread). */
export function requestModel(m: CheckRequest | TextRequest): ZoneModel {
  return { zone: m.zone, serial: m.serial, records: JSON.parse(m.records) as ZoneModel['records'] };
}

/**
 * Validates the version, loads it into a private name-server index, puts
 * it through the operator's caps and the one-message limit per record set.
 */
export async function checkVersion(m: CheckRequest): Promise<CheckReply> {
  const model = requestModel(m);
  const checked = validateZone(model);
  const errors = [...checked.errors];
  const load = testLoad(model);
  errors.push(...load.errors);
  errors.push(...capErrors(m.caps, model, buildZone(model)));
  let notify: Peer[] = [];
  if (load.index) {
    errors.push(...oversizedSets(load.index));
    notify = notifyTargets(load.index, []);
  }
  const passed = errors.length === 0;
  // A hint that fails is told, never the publish's failure (dns-scripts.ts logs it).
  const hint =
    passed && m.hint && load.index
      ? await publishHintOn(load.index, m.hint).catch(
          (err: Error): HintResult => ({ hint: [], silent: false, failed: [], error: err.message }),
        )
      : null;
  // On the thread only (the main thread would hold itself); bounded: a test that never lets go fails alone.
  if (m.hold && !isMainThread) Atomics.wait(m.hold, 0, 0, 60_000);
  return { errors, warnings: checked.warnings, notify, snapshot: passed ? JSON.stringify(model) : null, hint };
}
