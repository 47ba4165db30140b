import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { dataDirWithStore } from './helpers/store.ts';
import { promisify } from 'node:util';
import { VigilClient } from '../src/client/index.ts';
import { dbArgs } from './helpers/pgdb.ts';
import { freePort, tempDir, VIGIL } from './helpers/server.ts';

const run = promisify(execFile);

/** The environment without any VIGIL_* setting of the caller, plus `extra`: precedence tests need a clean slate. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VIGIL_')));
  return { ...env, VIGIL_LOG_LEVEL: 'warn', ...extra };
}

/** A command with `input` on stdin (a pipe, not a terminal). */
function piped(
  cmd: string,
  args: string[],
  input: string,
  env = cleanEnv(),
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const p = spawn(cmd, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('close', (code) => res({ code, stdout, stderr }));
    p.stdin.end(input);
  });
}

/** Resolves with stdout once a line matching `re` appears; rejects if the process exits first. */
function waitForLine(p: ChildProcess, re: RegExp): Promise<string> {
  return new Promise((res, rej) => {
    let out = '';
    let err = '';
    p.stderr?.on('data', (d) => (err += d));
    p.stdout!.on('data', (d) => {
      out += d;
      if (out.split('\n').some((l) => re.test(l))) res(out);
    });
    p.once('exit', (code) => rej(new Error(`vigil exited ${code} before ${re}: ${err}`)));
  });
}

function stop(p: ChildProcess): Promise<void> {
  return new Promise((res) => {
    if (p.exitCode !== null) return res();
    p.once('exit', () => res());
    p.kill('SIGTERM');
  });
}

test('bin/vigil --version prints the version of package.json', async () => {
  const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'));
  const { stdout } = await run(VIGIL, ['--version']);
  assert.equal(stdout.trim(), version);
});

describe('the first account', () => {
  test('the start-up hint, run as printed with the password piped in, makes an account that can log in, audit and host domains', async () => {
    const data = tempDir();
    const port = await freePort();
    const db = await dbArgs(data);
    const p = spawn(
      VIGIL,
      [
        'serve',
        '--data',
        data,
        '--https-port',
        String(port),
        '--http-port',
        '0',
        '--dns-port',
        '0',
        '--forward-port',
        '0',
        ...db,
      ],
      {
        env: cleanEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const out = await waitForLine(p, /^vigil ready/);
      const hint = out.split('\n').find((l) => l.includes('admin account add'));
      assert.ok(hint, out);
      assert.doesNotMatch(hint, /--password /, 'no password on the command line');
      // The printed line, pasted into a shell; the store URL's password is not printed, so the real one goes in.
      let command = hint.trim().replace('--userid USER', '--userid first');
      if (db.length) command = command.replace(/--db \S+/, `--db '${db[1]}'`);
      const added = await piped('sh', ['-c', command.replace(/^bin\/vigil/, `'${VIGIL}'`)], 'first password\n');
      assert.equal(added.code, 0, added.stderr);
      const account = JSON.parse(added.stdout);
      assert.deepEqual(account.auditTypes, ['basic', 'norisk', 'desktop', 'standard', 'advanced']);
      assert.deepEqual(account.allowIp, ['127.0.0.1']);
      assert.ok(account.dnsCredits > 0);
      const client = new VigilClient({
        baseUrl: `https://127.0.0.1:${port}`,
        ca: readFileSync(join(data, 'tls', 'cert.pem'), 'utf8'),
      });
      try {
        assert.ok(await client.login(account.apikey, 'first', 'first password'));
      } finally {
        client.close();
      }
    } finally {
      await stop(p);
    }
  });
});

/** `serve` on a free loopback HTTPS port only; a client factory for logins. */
async function serveApi(
  data: string,
): Promise<{ login(apikey: string, userid: string, password: string): Promise<string>; stop(): Promise<void> }> {
  const port = await freePort();
  const p = spawn(
    VIGIL,
    [
      'serve',
      '--data',
      data,
      '--https-port',
      String(port),
      '--http-port',
      '0',
      '--dns-port',
      '0',
      '--forward-port',
      '0',
      ...(await dbArgs(data)),
    ],
    {
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await waitForLine(p, /^vigil ready/);
  const ca = readFileSync(join(data, 'tls', 'cert.pem'), 'utf8');
  return {
    async login(apikey, userid, password) {
      const client = new VigilClient({ baseUrl: `https://127.0.0.1:${port}`, ca });
      try {
        return await client.login(apikey, userid, password);
      } finally {
        client.close();
      }
    },
    stop: () => stop(p),
  };
}

describe('admin account add/update: the password off the command line', () => {
  let data: string;
  before(async () => (data = await dataDirWithStore()));
  const admin = async (args: string[], input: string) =>
    piped(VIGIL, ['admin', 'account', ...args, '--data', data, ...(await dbArgs(data))], input);

  test('--password-stdin takes the first line of a pipe, for add and for update', async () => {
    const added = await admin(
      ['add', '--userid', 'piped', '--password-stdin', '--json'],
      'from the pipe\nnot this line\n',
    );
    assert.equal(added.code, 0, added.stderr);
    const { apikey } = JSON.parse(added.stdout);
    const updated = await admin(['update', '--userid', 'piped', '--password-stdin', '--json'], 'changed by pipe\r\n');
    assert.equal(updated.code, 0, updated.stderr);
    const server = await serveApi(data);
    try {
      await assert.rejects(server.login(apikey, 'piped', 'from the pipe'), 'the old password no longer works');
      assert.ok(await server.login(apikey, 'piped', 'changed by pipe'), 'a trailing CR is not part of the password');
    } finally {
      await server.stop();
    }
  });

  test('mistakes are refused with a message and change nothing', async () => {
    const cases: [string[], string, RegExp][] = [
      [['add', '--userid', 'nopw'], '', /password is required.*--password-stdin/],
      [['add', '--userid', 'empty', '--password-stdin'], '', /standard input ended/],
      [
        ['add', '--userid', 'both', '--password', 'long enough', '--password-stdin'],
        'long enough\n',
        /exclude each other/,
      ],
      [['add', '--userid', 'short', '--password-stdin'], 'short\n', /at least 8 characters/],
    ];
    for (const [args, input, message] of cases) {
      const r = await admin(args, input);
      assert.notEqual(r.code, 0, args.join(' '));
      assert.match(r.stderr, message, args.join(' '));
    }
    const list = await admin(['list', '--json'], '');
    assert.deepEqual(
      JSON.parse(list.stdout).map((a: any) => a.userid),
      ['piped'],
    );
  });

  /** `admin account add` on a pseudo-terminal (script(1) relays our pipe to it), each prompt answered once it shows. */
  async function onTerminal(userid: string, answers: string[]): Promise<{ code: unknown; screen: string }> {
    const command = [
      VIGIL,
      'admin',
      'account',
      'add',
      '--userid',
      userid,
      '--data',
      data,
      ...(await dbArgs(data)),
      '--json',
    ]
      .map((a) => `'${a}'`)
      .join(' ');
    const term = spawn('script', ['-qec', command, '/dev/null'], { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let screen = '';
    const prompts = ['Password: ', 'Password again: '];
    term.stdout.on('data', (d) => {
      screen += d;
      // The terminal is in raw mode before the prompt shows.
      if (prompts.length && screen.includes(prompts[0]!)) {
        screen = screen.replace(prompts.shift()!, '[asked]');
        term.stdin.write(`${answers.shift()}\r`);
      }
    });
    const code = await new Promise((res) => term.on('close', res));
    return { code, screen };
  }

  test('on a terminal, add asks twice without echo', async (t) => {
    if (!existsSync('/usr/bin/script'))
      return t.skip('script(1) (util-linux) is not installed: no terminal to test with');
    const { code, screen } = await onTerminal('typed', ['typed secret', 'typed secret']);
    assert.equal(code, 0, screen);
    assert.doesNotMatch(screen, /typed secret/, 'the password is not echoed');
    const { apikey } = JSON.parse(screen.slice(screen.indexOf('{')));
    const mistyped = await onTerminal('mistyped', ['first try', 'second try']);
    assert.notEqual(mistyped.code, 0);
    assert.match(mistyped.screen, /the two passwords differ; nothing changed/);
    const server = await serveApi(data);
    try {
      assert.ok(await server.login(apikey, 'typed', 'typed secret'));
    } finally {
      await server.stop();
    }
  });
});

describe('serve --config FILE: flags > env > file > defaults', () => {
  const data = tempDir();
  const file = join(data, 'vigil.conf');

  test('each setting comes from the strongest source that gives it', async () => {
    // One at a time: free ports asked for at once can come back equal (each is closed before the next is taken).
    const ports: number[] = [];
    while (ports.length < 6) {
      const p = await freePort();
      if (!ports.includes(p)) ports.push(p);
    }
    const [fileHttps, fileHttp, envHttp, fileForward, envForward, flagForward] = ports as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    writeFileSync(
      file,
      [
        '# every key is a serve flag without --',
        `data = ${data}`,
        `https-port = ${fileHttps}`,
        `http-port = ${fileHttp}`,
        `forward-port = ${fileForward}`,
        'dns-port = 0',
        '',
      ].join('\n'),
    );
    const p = spawn(
      VIGIL,
      ['serve', '--config', file, '--forward-port', String(flagForward), ...(await dbArgs(data))],
      {
        env: cleanEnv({ VIGIL_HTTP_PORT: String(envHttp), VIGIL_FORWARD_PORT: String(envForward) }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const out = await waitForLine(p, /^vigil ready/);
      const ready = out.split('\n').find((l) => l.startsWith('vigil ready'));
      // https: file over the default; http: env over file; forward: flag over env and file; dns: file's 0
      // over the default 5300.
      assert.equal(
        ready,
        `vigil ready https=127.0.0.1:${fileHttps} http=127.0.0.1:${envHttp} forward=127.0.0.1:${flagForward}`,
      );
      assert.match(out, new RegExp(`--data '${data}'`), 'the data directory came from the file');
    } finally {
      await stop(p);
    }
  });

  test("VIGIL_SERVE_CONFIG names the file (VIGIL_CONFIG is the user CLI's)", async () => {
    const port = await freePort();
    const other = join(data, 'by-env.conf');
    writeFileSync(other, `data = ${data}\nhttps-port = ${port}\nhttp-port = 0\ndns-port = 0\nforward-port = 0\n`);
    const p = spawn(VIGIL, ['serve', ...(await dbArgs(data))], {
      env: cleanEnv({ VIGIL_SERVE_CONFIG: other }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const out = await waitForLine(p, /^vigil ready/);
      assert.match(out, new RegExp(`^vigil ready https=127.0.0.1:${port}$`, 'm'));
    } finally {
      await stop(p);
    }
  });

  test('unknown keys, bad values and unreadable files stop the start with the key and line named', async () => {
    const cases: [string, RegExp][] = [
      ['https-port = 8443\nhttps_port = 1\n', /line 2: unknown key 'https_port'/],
      ['dns-port = 99999\n', /line 1: dns-port: invalid port '99999'/],
      // Checked even when a flag overrides it: the file is wrong either way.
      ['\n\nhttp-port = eighty\n', /line 3: http-port: invalid port 'eighty'/],
      ['publish-interval = soon\n', /line 1: publish-interval: /],
      ['scan-allow = 10.0.0.0/8,not-an-address\n', /line 1: scan-allow: .*not-an-address/],
      ['listen 127.0.0.1\n', /line 1: expected 'key = value'/],
      ['session-ttl = 1h\nsession-ttl = 2h\n', /line 2: 'session-ttl' again \(first on line 1\)/],
      ['smtp-url =\n', /line 1: smtp-url: no value/],
    ];
    for (const [text, message] of cases) {
      writeFileSync(file, text);
      const r = await piped(
        VIGIL,
        [
          'serve',
          '--config',
          file,
          '--data',
          data,
          '--http-port',
          '0',
          '--https-port',
          '0',
          '--dns-port',
          '0',
          '--forward-port',
          '0',
        ],
        '',
      );
      assert.notEqual(r.code, 0, text);
      assert.match(r.stderr, new RegExp(`config file ${file}, ${message.source}`), text);
    }
    const missing = await piped(VIGIL, ['serve', '--config', join(data, 'nowhere.conf')], '');
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /nowhere\.conf: cannot read it \(ENOENT\)/);
  });
});
