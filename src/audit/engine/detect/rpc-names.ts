/**
 * RPC services without a well-known port (mountd, status, nlockmgr,
 * rquotad …) named by what the host's portmapper says is registered on
 * them (PMAPPROC_DUMP over TCP), as nmap's rpcinfo and rpc-grind do: on
 * its own, detection sees such a port silent, or answering an RPC call
 * nmap's probes then call "rpcbind". Run once per host after the ports
 * were detected; a portmapper that refuses the list (TCP wrappers) names
 * nothing.
 */
import { PORTMAP, PROGRAMS, pmapDump } from '../../proto/rpc.ts';
import type { Net, Service } from '../types.ts';

export async function nameRpcPorts(net: Net, services: Service[]): Promise<void> {
  const pm = services.find((s) => s.name === 'rpcbind' && s.extra.rpc);
  if (!pm) return;
  const dump = await pmapDump(net, pm.port, 'tcp').catch(() => null);
  if (!dump?.list) return;
  for (const s of services) {
    if (s.port === pm.port || (s.name !== 'unknown' && s.name !== 'rpcbind')) continue;
    const regs = dump.list.filter((m) => m.proto === 'tcp' && m.port === s.port && m.prog !== PORTMAP);
    const name = regs[0] && PROGRAMS[regs[0].prog];
    if (!name) continue;
    const versions = [...new Set(regs.filter((m) => m.prog === regs[0]!.prog).map((m) => m.vers))].sort();
    Object.assign(s, { name, product: null });
    s.extra.rpc = `program ${regs[0]!.prog} v${versions.join(',')} on tcp/${s.port}, as the portmapper on ${pm.port} lists it`;
  }
}
