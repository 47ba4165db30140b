import dnsPacket from 'dns-packet';
import type { ZoneModel } from '../zone.ts';
import { answerMessage } from './server.ts';
import { ServingSet } from './serving-set.ts';
import type { ZoneIndex } from './zone-index.ts';
import { WIRE } from '../rr/wire-names.ts';

/**
 * Publish step 1: load the zone into a private instance of the name
 * server's index and ask it what a resolver would ask (SOA and NS at the
 * apex), and put every record set on the wire once. Returns errors, and
 * the loaded index for further checks (null when it did not load).
 */
export function testLoad(model: ZoneModel): { errors: string[]; index: ZoneIndex | null } {
  const errors: string[] = [];
  const set = new ServingSet();
  try {
    set.replace([model]);
  } catch (err) {
    return { errors: [`the zone cannot be loaded into the name server: ${(err as Error).message}`], index: null };
  }
  const index = set.find(model.zone)!;
  // One encode of everything; only when that fails, one per record set to name the culprit.
  const all = index.all;
  let wireOk = true;
  try {
    dnsPacket.encode({ type: 'response', answers: [...all] });
  } catch {
    wireOk = false;
  }
  for (const [name, node] of wireOk ? [] : index.nodes) {
    for (const [type, answers] of node) {
      try {
        dnsPacket.encode({ type: 'response', answers });
      } catch {
        errors.push(`${type} records at ${name} cannot be put on the wire`);
      }
    }
  }
  for (const qtype of [WIRE.SOA, WIRE.NS] as const) {
    const query = dnsPacket.encode({
      type: 'query',
      id: 1,
      questions: [{ type: qtype, name: model.zone, class: 'IN' }],
    });
    const [reply] = answerMessage(set, query, 'tcp');
    const decoded = reply && dnsPacket.decode(reply);
    if (
      !decoded ||
      (decoded as { rcode?: string }).rcode !== 'NOERROR' ||
      !decoded.answers?.some((a) => a.type === qtype)
    ) {
      errors.push(`the test name server gives no ${qtype} answer for ${model.zone}`);
    }
  }
  return { errors, index };
}
