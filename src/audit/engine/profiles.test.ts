import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHECKS } from '../checks/catalogue.ts';
import { checksFor, classOf } from './profiles.ts';
import type { Check } from './types.ts';

const fake = (id: string, flags: Partial<Check>): Check =>
  ({
    id,
    shortid: id,
    title: id,
    family: 'General',
    categories: ['safe'],
    risk: 'low',
    cves: [],
    type: 'NOTE',
    description: '',
    solution: '',
    references: [],
    ports: { host: true },
    runOn: async () => [],
    ...flags,
  }) as Check;

const catalogue = [
  fake('passive', { categories: ['safe', 'passive'] }),
  fake('active', {}),
  fake('intrusive', { categories: ['intrusive'] }),
  fake('dos', { categories: ['dos'], family: 'Denial of Service' }),
  fake('dos-category', { family: 'Denial of Service', categories: ['dos', 'passive'] }),
  fake('desktop', { categories: ['safe', 'desktop'] }),
  fake('vigil.nse.vuln', {}),
];
const ids = (type: Parameters<typeof checksFor>[0], excludedos = false) =>
  checksFor(type, excludedos, catalogue).map((c) => c.id);

test('each audit type runs what its profile allows (ARCHITECTURE.md)', () => {
  assert.deepEqual(ids('basic'), ['passive']);
  assert.deepEqual(ids('norisk'), ['passive', 'active', 'desktop']);
  assert.deepEqual(ids('desktop'), ['passive', 'desktop']);
  // standard = norisk + the denial-of-service measurements: the two differ.
  assert.deepEqual(ids('standard'), ['passive', 'active', 'dos', 'dos-category', 'desktop']);
  assert.deepEqual(
    ids('advanced'),
    catalogue.map((c) => c.id),
  );
});

test('excludedos drops the denial-of-service checks from every type', () => {
  assert.deepEqual(ids('advanced', true), ['passive', 'active', 'intrusive', 'desktop', 'vigil.nse.vuln']);
  assert.deepEqual(ids('standard', true), ids('norisk', true));
  assert.deepEqual(ids('basic', true), ['passive']);
});

test('every check of the real catalogue is in exactly one class', () => {
  for (const c of CHECKS) {
    const classes = c.categories.filter((x) => x === 'safe' || x === 'intrusive' || x === 'dos');
    assert.deepEqual(classes, [c.categories[0]], `${c.id}: one class, first`);
    assert.equal(classOf(c) === 'dos', c.family === 'Denial of Service', `${c.id}: dos class and family disagree`);
  }
});

test('the real catalogue: norisk never runs an intrusive or DoS check; standard adds DoS measurements; nmap only in advanced', () => {
  for (const c of checksFor('norisk', false)) assert.equal(classOf(c), 'safe', c.id);
  for (const c of checksFor('standard', false)) assert.notEqual(classOf(c), 'intrusive', c.id);
  assert.ok(checksFor('standard', false).length > checksFor('norisk', false).length, 'standard runs more than norisk');
  assert.ok(checksFor('standard', true).length < checksFor('standard', false).length, 'excludedos removes something');
  for (const c of checksFor('basic', false)) assert.ok(c.categories.includes('passive'), c.id);
  for (const type of ['basic', 'norisk', 'desktop', 'standard'] as const)
    assert.ok(!checksFor(type, false).some((c) => c.id.startsWith('vigil.nse.')), type);
  assert.ok(checksFor('advanced', false).some((c) => c.id === 'vigil.nse.vuln'));
  assert.ok(CHECKS.length >= 80);
});
