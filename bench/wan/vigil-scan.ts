/**
 * Vigil's side of the emulated WAN, run inside the scanner's namespace
 * (netns.ts): scanHosts over the given addresses and ports, then (with
 * `detect`) service detection of what it found. Prints one JSON line.
 *   node --import tsx bench/wan/vigil-scan.ts '<json: {addresses, ports, discovery?, syn?, detect?}>'
 */
import { detectServices } from '../../src/audit/engine/detect.ts';
import { Fence } from '../../src/audit/engine/fence.ts';
import { parsePortRanges } from '../../src/audit/engine/ports.ts';
import { scanHosts } from '../../src/audit/engine/scan/scan.ts';

const o = JSON.parse(process.argv[2]!) as {
  addresses: string[];
  /** A list, or ranges as nmap takes them (`1-65535`: a full list would not fit in argv). */
  ports: number[] | string;
  discovery?: boolean;
  syn?: boolean;
  detect?: boolean;
};
const fence = new Fence(o.addresses, ['198.18.1.0/24']);
const ports = typeof o.ports === 'string' ? parsePortRanges(o.ports) : o.ports;
const t0 = performance.now();
// When each address was finished (ms from the start): down ones when discovery gave up on them, live ones when their
// port scan ended. Where a range scan's time goes.
const ended: number[] = [];
const hosts = await scanHosts(fence, o.addresses, ports, {
  discovery: o.discovery !== false,
  syn: o.syn !== false,
  onHost: (i) => (ended[i] = Math.round(performance.now() - t0)),
});
const scanMs = performance.now() - t0;
let services: Record<string, string[]> = {};
let detectMs = 0;
if (o.detect) {
  const t1 = performance.now();
  const found = await Promise.all(
    hosts
      .filter((h) => h.open.length)
      .map(
        async (h) =>
          [h.address, (await detectServices(fence.net(h.address), h.open)).map((s) => `${s.port}/${s.name}`)] as const,
      ),
  );
  services = Object.fromEntries(found);
  detectMs = performance.now() - t1;
}
console.log(JSON.stringify({ scanMs, detectMs, hosts, services, ended }));
process.exit(0);
