import { MPD_PORT, mpdAsk, type MpdAnswer } from '../../proto/mpd.ts';
import { shown } from '../../proto/talk.ts';
import { defineCheck } from '../kit.ts';

const pick = (a: MpdAnswer, keys: readonly string[]) =>
  a.pairs
    .filter(([k]) => keys.includes(k))
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');

/**
 * A music server of the MPD protocol (MPD, Mopidy-MPD) answering `status`
 * and `outputs` without a password: anyone who reaches it plays, stops,
 * queues and deletes music, changes the volume and turns the audio
 * outputs on and off, and reads the library and what is playing. Proof:
 * the greeting, then both read-only commands answered with their fields
 * (quoted). A server with a password answers them `ACK [4@0] … you don't
 * have permission`, which is not reported. Decision: low, a NOTE: the
 * player, not the host, is what is exposed. Nothing is changed.
 */
export default defineCheck({
  id: 'vigil.mpd.open',
  shortid: 'MPD-OPEN',
  title: 'Music player (MPD protocol) controllable by anyone',
  family: 'General',
  categories: ['safe', 'discovery', 'default', 'auth'],
  risk: 'low',
  type: 'NOTE',
  description:
    "The music server speaks the MPD protocol to anyone without a password: any host that reaches the port controls playback, volume, the queue and the audio outputs, edits playlists and reads the music library, and some servers' commands (database update, stored playlists) also write to the server's disk.",
  solution:
    'Bind the server to localhost or the trusted network only (mpd.conf `bind_to_address`), set a `password` with only the permissions each client needs and `default_permissions` empty or "read", and firewall TCP 6600.',
  references: ['https://mpd.readthedocs.io/en/stable/user.html#permissions-and-passwords'],
  ports: { services: ['mpd'], ports: [MPD_PORT] },
  run: async ({ net, port }) => {
    const r = await mpdAsk(net, port, ['status', 'outputs']);
    const [status, outputs] = r?.answers ?? [];
    if (!r || !status?.ok || !outputs?.ok || !status.pairs.some(([k]) => k === 'state')) return null;
    const names = outputs.pairs.filter(([k]) => k === 'outputname').map(([, v]) => v);
    return `The server greeted "OK MPD ${r.protocol}"; \`status\` was answered without a password (${shown(pick(status, ['state', 'volume', 'playlistlength', 'song']), 160)}) and \`outputs\` listed ${names.length} audio output${names.length === 1 ? '' : 's'}${names.length ? ` (${shown(names.join(', '), 120)})` : ''}.`;
  },
});
