import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_POLICY, keyStates, kskRoll, nextKeyEvent, plan, type KeyTimes } from './keyring.ts';

const H = 3_600_000;
const D = 24 * H;
const T0 = Date.UTC(2026, 0, 1);
const key = (id: number, role: 'ksk' | 'zsk', activeAt: number, more: Partial<KeyTimes> = {}): KeyTimes => ({
  id,
  role,
  createdAt: activeAt,
  activeAt,
  retireAt: null,
  removeAt: null,
  ...more,
});
// Lead before a successor signs: interval (5 min) + propagation (1 h) + DNSKEY TTL (1 h).
const INTERVAL = 5 * 60_000;
const LEAD = INTERVAL + DEFAULT_POLICY.propagation + DEFAULT_POLICY.dnskeyTtl;

test('a zone without keys gets a KSK and a ZSK, active at once', () => {
  assert.deepEqual(plan([], T0, D, DEFAULT_POLICY, INTERVAL).create, [
    { role: 'ksk', activeAt: T0 },
    { role: 'zsk', activeAt: T0 },
  ]);
  assert.deepEqual(plan([key(1, 'ksk', T0), key(2, 'zsk', T0)], T0, D, DEFAULT_POLICY, INTERVAL), {
    create: [],
    retire: [],
    remove: [],
  });
});

test('ZSK pre-publication: the successor is due one lead before the lifetime ends, signs at its end, the old key retires then and goes after TTL + margins', () => {
  const keys = [key(1, 'ksk', T0), key(2, 'zsk', T0)];
  const due = T0 + DEFAULT_POLICY.zskLifetime - LEAD;
  assert.equal(
    nextKeyEvent(keys, T0, DEFAULT_POLICY, INTERVAL),
    due,
    'the zone is signed again when the successor is due',
  );
  assert.deepEqual(plan(keys, due - 1, D, DEFAULT_POLICY, INTERVAL).create, []);
  assert.deepEqual(plan(keys, due, D, DEFAULT_POLICY, INTERVAL).create, [{ role: 'zsk', activeAt: due + LEAD }]);
  const withNext = [...keys, { ...key(3, 'zsk', due + LEAD), createdAt: due }];
  assert.deepEqual(keyStates(withNext, due + 1), [
    { id: 1, sign: true },
    { id: 2, sign: true },
    { id: 3, sign: false },
  ]);
  assert.deepEqual(
    plan(withNext, due + LEAD - 1, D, DEFAULT_POLICY, INTERVAL).retire,
    [],
    'nothing before the successor signs',
  );
  const removeAt = due + LEAD + INTERVAL + DEFAULT_POLICY.propagation + D;
  assert.deepEqual(plan(withNext, due + LEAD, D, DEFAULT_POLICY, INTERVAL).retire, [
    { id: 2, retireAt: due + LEAD, removeAt },
  ]);
  const retired = [withNext[0]!, { ...withNext[1]!, retireAt: due + LEAD, removeAt }, withNext[2]!];
  assert.deepEqual(keyStates(retired, due + LEAD), [
    { id: 1, sign: true },
    { id: 2, sign: false },
    { id: 3, sign: true },
  ]);
  assert.deepEqual(plan(retired, removeAt, D, DEFAULT_POLICY, INTERVAL), { create: [], retire: [], remove: [2] });
});

test('KSK roll on command: started adds a signing KSK, finished retires every older one', () => {
  const one = [key(1, 'ksk', T0), key(2, 'zsk', T0)];
  assert.deepEqual(kskRoll(one, T0 + D), { step: 'started', create: { role: 'ksk', activeAt: T0 + D } });
  const two = [...one, key(3, 'ksk', T0 + D)];
  assert.deepEqual(kskRoll(two, T0 + 2 * D), {
    step: 'finished',
    retire: [{ id: 1, retireAt: T0 + 2 * D, removeAt: T0 + 2 * D }],
  });
});
