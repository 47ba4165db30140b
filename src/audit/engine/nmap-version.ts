import { execFile } from 'node:child_process';

let cached: Promise<string | null> | undefined;

/**
 * The version of the nmap the NSE check runs (`Nmap version 7.93 ( https://nmap.org )`
 * on Debian 12), or null without nmap on PATH. Asked once per process: the
 * report says which NSE ran, and nmap's scripts change between versions.
 */
export function nmapVersion(): Promise<string | null> {
  cached ??= new Promise((resolve) => {
    execFile('nmap', ['--version'], { timeout: 10_000 }, (err, stdout) =>
      resolve(err ? null : (/Nmap version (\S+)/.exec(stdout)?.[1] ?? null)),
    );
  });
  return cached;
}
