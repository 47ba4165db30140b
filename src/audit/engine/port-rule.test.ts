import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findingsOf, targetsOf } from './port-rule.ts';
import type { HostFacts, Net, PortRule, Service, Target } from './types.ts';

const svc = (port: number, name: string, over: Partial<Service> = {}): Service => ({
  port,
  protocol: 'tcp',
  name,
  product: null,
  version: null,
  banner: null,
  tls: null,
  http: null,
  extra: {},
  ...over,
});
const TLS = { protocol: 'TLSv1.3', cipher: 'TLS_AES_128_GCM_SHA256', certificate: null };
const host: HostFacts = {
  address: '127.0.0.1',
  openPorts: [21, 22, 25, 139, 445, 2121, 8443, 9999],
  services: [
    svc(21, 'ftp'),
    svc(22, 'http'),
    svc(25, 'smtp'),
    svc(2121, 'ftp'),
    svc(8443, 'https', { tls: TLS }),
    svc(9999, 'unknown'),
  ],
};
const net = { address: host.address } as Net;
const on = (rule: PortRule, h: HostFacts = host) => targetsOf(rule, h, net).map((t) => `${t.protocol}/${t.port}`);

test('port_or_service: named services anywhere, usual ports when open and not named otherwise', () => {
  assert.deepEqual(on({ services: ['ftp'], ports: [21, 22, 9999, 990] }), ['tcp/21', 'tcp/2121', 'tcp/9999']);
  assert.deepEqual(on({ where: (s) => s.name === 'https' }), ['tcp/8443']);
  // 139 and 445 are open but detection said nothing about them: a usual port still counts.
  assert.deepEqual(on({ ports: [445] }), ['tcp/445']);
});

test('tls, max, fallback, udp and via narrow or widen the targets as declared', () => {
  const any = { where: () => true };
  assert.deepEqual(on({ ...any, tls: true }), ['tcp/8443']);
  assert.deepEqual(on({ ...any, tls: false, max: 2 }), ['tcp/21', 'tcp/22']);
  assert.deepEqual(on({ services: ['smb'], ports: [4450], fallback: { ports: [139] } }), ['tcp/139']);
  assert.deepEqual(on({ services: ['smb'], ports: [445], fallback: { ports: [139] } }), ['tcp/445']);
  assert.deepEqual(on({ services: ['smtp'], udp: [161] }), ['tcp/25', 'udp/161']);
  assert.deepEqual(on({ services: ['ftp'], udp: [21, 53], via: 'udp' }), ['udp/21', 'udp/53', 'udp/2121']);
  assert.deepEqual(on({ host: true }), ['tcp/0']);
  assert.deepEqual(on({ services: ['ftp'] }, { ...host, services: [] }), []);
});

test("a run's outcome: nothing, a detail on the target's port, or findings that may name another port", () => {
  const t = { port: 25 } as Target;
  assert.deepEqual(findingsOf(null, t), []);
  assert.deepEqual(findingsOf('', t), []);
  assert.deepEqual(findingsOf('seen', t), [{ port: 25, detail: 'seen' }]);
  assert.deepEqual(findingsOf({ detail: 'x', qod: 50 }, t), [{ port: 25, detail: 'x', qod: 50 }]);
  assert.deepEqual(findingsOf([{ detail: 'a' }, { detail: 'b', port: 161 }], t), [
    { port: 25, detail: 'a' },
    { port: 161, detail: 'b' },
  ]);
});
