import type { Net } from '../../../engine/types.ts';
import { listShares } from '../../../proto/smb-rpc.ts';
import { type Login, STATUS, login, negotiate, treeConnect } from '../../../proto/smb.ts';
import { talk } from '../../../proto/talk.ts';

/** Guest and anonymous share access over SMB2: the session, the listing, the tree connects (proto/smb*.ts). */
/** Share names tried when the session may not list them (srvsvc refused). */
const SHARES = [
  'public',
  'share',
  'shared',
  'shares',
  'guest',
  'pub',
  'data',
  'files',
  'tmp',
  'temp',
  'anonymous',
  'backup',
  'docs',
  'media',
  'users',
  'homes',
  'print$',
  'netlogon',
  'sysvol',
];

/** One session on its own connection: login as `user` (null: anonymous), then connect to each share. */
export function tryShares(
  net: Net,
  port: number,
  user: string | null,
): Promise<{ login: Login; shares: string[] } | null> {
  return talk(
    net,
    port,
    async (c) => {
      const n = await negotiate(c);
      if (!n) return null;
      const l = await login(n, user);
      if (!l || l.status !== STATUS.SUCCESS) return l ? { login: l, shares: [] } : null;
      // The real list when the session may read it (srvsvc through IPC$), else the usual names.
      const listed = await listShares(n, net.address).catch(() => null);
      const shares: string[] = [];
      for (const s of listed?.length ? listed.slice(0, 20) : SHARES) {
        const t = await treeConnect(n, net.address, s);
        if (!t) break;
        if (t.status === STATUS.SUCCESS && t.type === 1) shares.push(s);
      }
      return { login: l, shares };
    },
    10_000,
  );
}
