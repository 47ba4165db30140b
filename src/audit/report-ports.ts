import type { Service } from './engine/types.ts';

/** `1-3,5` from a sorted port list. */
export function portRanges(ports: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < ports.length; ) {
    let j = i;
    while (j + 1 < ports.length && ports[j + 1] === ports[j]! + 1) j++;
    out.push(i === j ? String(ports[i]) : `${ports[i]}-${ports[j]}`);
    i = j + 1;
  }
  return out.join(',');
}

/**
 * `ports[].portservice`: what detection named, as `<service> <product>
 * <version>` with the parts it found (`http Apache httpd 2.4.49`, `ssh
 * OpenSSH 7.4`, `https`); the port's usual service (nmap-services) only
 * when detection named neither service nor product. A product without a
 * service name stands alone: the port's usual name would be a guess.
 */
export function portService(service: Service | undefined, usual: string): string {
  const name = service && service.name !== 'unknown' ? service.name : null;
  const parts = [name, service?.product ?? null, service?.product ? service.version : null].filter(
    (x): x is string => !!x,
  );
  return parts.length ? parts.join(' ') : usual;
}
