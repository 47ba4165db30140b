/**
 * Debuggers listening to the network, K = 90 (N = 3, 4 and 103, 104,
 * beside the Flask apps): Node.js with --inspect on the address (the V8
 * inspector, DevTools protocol) and a JVM with a JDWP agent on it (Debian
 * OpenJDK, a one-file program that sleeps). Neither protocol has
 * authentication: the twins are the same programs with the debugger on
 * 127.0.0.1 (port 0), so that nothing of theirs answers on the twin
 * address, where a plain node HTTP server answers /json/version 404
 * (inspector's twin) and a sink swallows the handshake (JDWP's twin).
 */
import { jdwpJvmArgs, nodeInspectorArgs } from '../../../test/helpers/exec-daemons.ts';
import { addr, any, none, script, svc, type Daemon } from './kit.ts';

const K = 90;
const A = (n: number) => addr(K, n);
const INSPECT = 9229;
const JDWP = 5005;

export const NODE_INSPECTOR: Daemon = {
  kind: 'node-inspector',
  binaries: ['node'],
  ports: { tcp: [INSPECT], udp: [] },
  weaknesses: [
    {
      id: 'node-inspector-open',
      family: 'auth',
      label: 'Node.js --inspect on an outside address (DevTools protocol)',
      daemon: 'node',
      address: A(3),
      port: INSPECT,
      proto: 'tcp',
      vigil: { id: /^vigil\.devtools\.open$/ },
      nmap: none,
    },
  ],
  twins: [{ address: A(103), note: 'inspector on 127.0.0.1; a plain HTTP server on the address' }],
  async start(ctx) {
    const open = ctx.spawn(`node-inspect-${A(3)}`, process.execPath, nodeInspectorArgs(A(3), INSPECT));
    await ctx.waitTcp(A(3), INSPECT, open);
    ctx.spawn(`node-inspect-local`, process.execPath, nodeInspectorArgs('127.0.0.1', 0));
    const web = ctx.spawn(`node-http-${A(103)}`, process.execPath, [
      '-e',
      `require('http').createServer((q, s) => { s.statusCode = 404; s.end('not found'); }).listen(${INSPECT}, '${A(103)}')`,
    ]);
    await ctx.waitTcp(A(103), INSPECT, web);
  },
};

export const JDWP_JVM: Daemon = {
  kind: 'jdwp',
  binaries: ['java', 'javac', 'socat'],
  ports: { tcp: [JDWP], udp: [] },
  weaknesses: [
    {
      id: 'jdwp-open',
      family: 'auth',
      label: 'Java VM with its JDWP agent on an outside address',
      daemon: 'java',
      address: A(4),
      port: JDWP,
      proto: 'tcp',
      vigil: { id: /^vigil\.jdwp\.open$/ },
      // jdwp-info's own report (it injects a class that prints them), or -sV naming the open debug port; a run
      // where jdwp-info failed printed "ERROR…", which is no evidence.
      nmap: any(script('jdwp-info', /Available processors|os\.name|java\.version/i), svc(/jdwp/i)),
    },
  ],
  twins: [{ address: A(104), note: 'JDWP agent on 127.0.0.1; a silent sink on the address' }],
  async start(ctx) {
    const jvm = ctx.spawn(`jdwp-${A(4)}`, 'java', jdwpJvmArgs(ctx.dir('jdwp-4'), A(4), JDWP));
    await ctx.waitTcp(A(4), JDWP, jvm, 60_000);
    ctx.spawn('jdwp-local', 'java', jdwpJvmArgs(ctx.dir('jdwp-local'), '127.0.0.1', 0));
    // A sink (discard): silent to the handshake, and not an echo service either.
    const sink = ctx.spawn(`sink-${A(104)}`, 'socat', [
      `TCP-LISTEN:${JDWP},bind=${A(104)},fork,reuseaddr`,
      'SYSTEM:cat >/dev/null',
    ]);
    await ctx.waitTcp(A(104), JDWP, sink);
  },
};
