/**
 * Starts the fleet (or the kinds named) and waits: for trying a daemon by
 * hand (dig, ldapsearch, smbclient …). Ctrl-C stops everything.
 *   node --import tsx bench/detection/fleet/up.ts [kind …] [--exit]
 */
import { ADDRESSES, startFleet, stopFleet } from './index.ts';

const args = process.argv.slice(2);
const exitAfter = args.includes('--exit');
const kinds = args.filter((a) => !a.startsWith('--'));
const stop = () => void stopFleet().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
try {
  const status = await startFleet(kinds.length ? new Set(kinds) : undefined);
  console.log(JSON.stringify({ ...status, addresses: ADDRESSES.length }, null, 2));
} catch (err) {
  console.error(err);
}
if (exitAfter) stop();
else setInterval(() => {}, 1 << 30); // keep waiting for Ctrl-C
