/**
 * Debian jupyter-notebook, K = 89 (N = 2 and 102, beside supervisor), in
 * the foreground. Weak: no token and no password (the REST API starts
 * kernels for anyone). Twin: a token (403 without it).
 */
import { jupyterArgs, jupyterEnv } from '../../../test/helpers/exec-daemons.ts';
import { addr, none, type Daemon } from './kit.ts';

const K = 89;
const A = (n: number) => addr(K, n);
const PORT = 8888;

export const JUPYTER: Daemon = {
  kind: 'jupyter',
  binaries: ['jupyter-notebook'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    {
      id: 'jupyter-open',
      family: 'auth',
      label: 'Jupyter Notebook without a token or password',
      daemon: 'jupyter-notebook',
      address: A(2),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.jupyter\.open$/ },
      nmap: none,
    },
  ],
  twins: [{ address: A(102), note: 'a token (403 without it)' }],
  async start(ctx) {
    for (const [n, open] of [
      [2, true],
      [102, false],
    ] as const) {
      const dir = ctx.dir(`jupyter-${n}`);
      const child = ctx.spawn(`jupyter-${A(n)}`, 'jupyter-notebook', jupyterArgs(dir, A(n), PORT, open), {
        env: jupyterEnv(dir),
      });
      // Python and Tornado start in a few seconds on a quiet machine; the loaded 2-core VM takes longer.
      await ctx.waitTcp(A(n), PORT, child, 60_000);
    }
  },
};
