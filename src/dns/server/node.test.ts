import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Answer } from 'dns-packet';
import { Catalog, memberId } from './catalog.ts';
import { addTo, type Node, OneTypeNode } from './node.ts';
import { drain } from './slices.ts';

const a = (name: string, type: string, data: string) => ({ type, name, ttl: 60, class: 'IN', data }) as Answer;

test('a node of one type answers as a Map would; a second type turns it into a Map', () => {
  const nodes = new Map<string, Node>();
  addTo(nodes, a('www.example', 'A', '192.0.2.1'));
  addTo(nodes, a('www.example', 'A', '192.0.2.2'));
  const one = nodes.get('www.example')!;
  assert.ok(one instanceof OneTypeNode);
  assert.deepEqual(
    one.get('A')?.map((r) => (r as { data: string }).data),
    ['192.0.2.1', '192.0.2.2'],
  );
  assert.equal(one.get('AAAA'), undefined);
  assert.equal(one.has('A') && !one.has('MX'), true);
  assert.equal(one.size, 1);
  assert.deepEqual([...one.keys()], ['A']);
  assert.deepEqual(
    [...one].map(([t, rrs]) => `${t} ${rrs.length}`),
    ['A 2'],
  );
  assert.deepEqual([...one.values()].flat().length, 2);
  addTo(nodes, a('WWW.example', 'TXT', 'x'));
  const two = nodes.get('www.example')!;
  assert.ok(two instanceof Map);
  assert.deepEqual([...two.keys()], ['A', 'TXT']);
  assert.equal(two.get('A')!.length, 2);
});

test('the catalog lists exactly its members and keeps the record of a member that stays', () => {
  const catalog = new Catalog('catalog.example');
  const ptrs = (members: string[], serial: number) => {
    const index = drain(catalog.buildSteps(members, serial));
    return new Map(index.all.filter((r) => r.type === 'PTR').map((r) => [String((r as { data: string }).data), r]));
  };
  const first = ptrs(['a.example', 'b.example'], 1);
  const second = ptrs(['a.example', 'c.example'], 2);
  assert.deepEqual([...second.keys()], ['a.example', 'c.example']);
  assert.equal(second.get('a.example'), first.get('a.example'), 'the same record object');
  assert.equal(second.get('c.example')!.name, `${memberId('c.example')}.zones.catalog.example`);
});
