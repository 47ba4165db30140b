/** Addresses in numeric order (10.0.0.2 before 10.0.0.10; IPv6 groups as hex), for reports and the console. */
export function compareAddress(a: string, b: string): number {
  const parts = (x: string) => x.split(/[.:]/).map((p) => parseInt(p || '0', x.includes(':') ? 16 : 10));
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(pa.length, pb.length); i++)
    if ((pa[i] ?? -1) !== (pb[i] ?? -1)) return (pa[i] ?? -1) - (pb[i] ?? -1);
  return 0;
}
