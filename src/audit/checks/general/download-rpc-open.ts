import { defineCheck } from '../kit.ts';
import { ARIA2_PATH, TRANSMISSION_PATH, aria2Call, transmissionSession } from '../../proto/download-rpc.ts';
import { isHttpService, usesTls } from '../../proto/http.ts';
import { shown } from '../../proto/talk.ts';

const str = (v: unknown, max = 60) => (typeof v === 'string' || typeof v === 'number' ? shown(String(v), max) : null);

/**
 * A download manager's remote-control API answered without its secret:
 * aria2's JSON-RPC (aria2.getVersion, then aria2.getGlobalOption for the
 * download directory) or Transmission's RPC (session-get after the
 * X-Transmission-Session-Id 409, which is CSRF protection and no
 * authentication). Either API adds downloads that write files where the
 * daemon's user can (aria2's `dir` and `out` per download; Transmission's
 * download-dir), and Transmission's session-set also sets a script run
 * when a torrent completes: HOLE, high. Proof is the read answered; a
 * refusal (aria2's "Unauthorized", Transmission's 401 or 403) is silence.
 */
export default defineCheck({
  id: 'vigil.download.rpc-open',
  shortid: 'DOWNLOAD-RPC-OPEN',
  title: 'Download manager RPC open without a secret (aria2, Transmission)',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "The download manager's remote-control API answered without credentials: anyone who reaches the port can add downloads that write files of their choosing wherever the daemon's user can write (a shell profile, an SSH authorized_keys file, a web root), change its settings (Transmission: a script run when a download completes) and read what it downloads.",
  solution:
    'aria2: set --rpc-secret (rpc-secret= in aria2.conf) and drop --rpc-listen-all; Transmission: set rpc-authentication-required true with rpc-username and rpc-password, and keep rpc-whitelist-enabled true with only the hosts that need it (settings.json, daemon stopped while editing). Bind either to 127.0.0.1 where nothing else needs it.',
  references: [
    'https://aria2.github.io/manual/en/html/aria2c.html#rpc-interface',
    'https://github.com/transmission/transmission/blob/main/docs/rpc-spec.md',
  ],
  ports: { services: ['aria2', 'transmission'], ports: [6800, 9091], where: isHttpService },
  run: async ({ net, port, service }) => {
    const tls = !!service && usesTls(service);
    const version = await aria2Call(net, port, tls, 'aria2.getVersion');
    const v = str(version?.result.version, 20);
    if (version && v) {
      const features = Array.isArray(version.result.enabledFeatures) ? version.result.enabledFeatures.length : null;
      const options = await aria2Call(net, port, tls, 'aria2.getGlobalOption');
      const dir = str(options?.result.dir, 80);
      return `POST ${ARIA2_PATH} aria2.getVersion was answered with version ${v}${features !== null ? ` (${features} features)` : ''}${dir ? ` and aria2.getGlobalOption with dir "${dir}"` : ''}, without the RPC secret.`;
    }
    const t = await transmissionSession(net, port, tls);
    if (!t || !('args' in t)) return null;
    const tv = str(t.args.version, 40);
    const dir = str(t.args['download-dir'], 80);
    if (!tv && !dir) return null;
    return `POST ${TRANSMISSION_PATH} session-get was answered 409 with an X-Transmission-Session-Id, then with "result": "success"${tv ? `, version ${tv}` : ''}${dir ? `, download-dir "${dir}"` : ''}, without credentials.`;
  },
});
