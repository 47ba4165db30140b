import { defineCheck } from '../kit.ts';
import { varnishCli } from '../../proto/varnish.ts';
import { shown } from '../../proto/talk.ts';

/**
 * Varnish's management CLI (varnishd -T) without a secret file (-S): the
 * greeting is status 200 and the banner instead of the 107 challenge
 * (varnish-cli(7), "Authentication with -S"), and commands are answered.
 * `ping` and `status` prove it; nothing else is sent. Anyone there can
 * load VCL (vcl.inline), which rewrites every response the cache serves,
 * stop the cache, and `param.set vcc_allow_inline_c on` then load VCL with
 * inline C, which varnishd compiles and runs: command execution, unless
 * the parameter was made read-only (-r). A HOLE, high. A CLI that greets
 * with 107 is not reported.
 */
export default defineCheck({
  id: 'vigil.varnish.cli-open',
  shortid: 'VARNISH-CLI-OPEN',
  title: 'Varnish management CLI without authentication',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "Varnish's management interface (varnishd -T) accepts commands without the challenge of a secret file: anyone who reaches the port can load new VCL that rewrites or redirects every response the cache serves, ban all content, stop the cache, and (by turning vcc_allow_inline_c on and loading VCL with inline C) run commands on the host.",
  solution:
    'Start varnishd with -S pointing to a secret file readable only by root (Debian: -S /etc/varnish/secret in the service unit) and bind -T to the loopback (-T localhost:6082); firewall the port from everything but the administrators.',
  references: ['https://varnish-cache.org/docs/trunk/reference/varnish-cli.html'],
  ports: { services: ['varnish-cli'], ports: [6082] },
  run: async ({ net, port }) => {
    const cli = await varnishCli(net, port);
    if (!cli || cli.greeting.status !== 200 || !cli.ping || cli.ping.status !== 200) return null;
    const banner = shown(cli.greeting.body.replace(/-{5,}/g, ' '), 100);
    const status = cli.status ? `; "status" answered ${cli.status.status} "${shown(cli.status.body, 60)}"` : '';
    return `The CLI greeted with status 200 and its banner ("${banner}"), no 107 authentication challenge; "ping" answered 200 "${shown(cli.ping.body, 40)}"${status}.`;
  },
});
