/**
 * MQTT without authentication on a real Debian mosquitto: a listener with
 * allow_anonymous true is found; the twin (password_file, anonymous off)
 * answers "not authorized" and is not reported.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { mqttAnonymousConnect } from '../../proto/mqtt.ts';
import { checkById } from '../catalogue.ts';

const check = checkById('vigil.mqtt.anonymous');
const MOSQUITTO = which('mosquitto');
const ADDR = '127.0.71.3';

function mosquitto(anonymous: boolean): Promise<number> {
  const dir = tempDir('mosquitto');
  const passwords = join(dir, 'passwd');
  if (!anonymous) execFileSync('mosquitto_passwd', ['-b', '-c', passwords, 'sensor', 'not-a-real-secret-7Qx']);
  return daemon(ADDR, MOSQUITTO!, (port) => {
    const conf = join(dir, `mosquitto-${port}.conf`);
    writeFileSync(
      conf,
      [
        `listener ${port} ${ADDR}`,
        `allow_anonymous ${anonymous}`,
        ...(anonymous ? [] : [`password_file ${passwords}`]),
        'persistence false',
        ...(process.getuid?.() === 0 ? ['user root'] : []),
      ].join('\n'),
    );
    return ['-c', conf];
  });
}

test('mosquitto: allow_anonymous true is found; a password file with anonymous off is not', {
  skip: MOSQUITTO ? false : 'mosquitto is not installed (apt-get install mosquitto)',
}, async () => {
  const [open, shut] = await Promise.all([mosquitto(true), mosquitto(false)]);
  const [f, ...more] = await check.runOn(hostOf(ADDR, [service(open, 'mqtt')]), netFor(ADDR));
  assert.equal(more.length, 0);
  assert.match(f!.detail, /no user name and no password was answered CONNACK return code 0/);
  assert.equal(await mqttAnonymousConnect(netFor(ADDR), shut), 5); // not authorized
  assert.deepEqual(await check.runOn(hostOf(ADDR, [service(shut, 'mqtt')]), netFor(ADDR)), []);
});
