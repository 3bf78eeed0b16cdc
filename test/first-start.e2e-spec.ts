import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './support/service-process';

const REPO = path.resolve(__dirname, '..');

/** Runs a command in a folder with only the given environment; its exit code and output. */
function run(
  cwd: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 90_000,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * A newcomer clones into a folder only they can enter (`/root/…`, any `mktemp -d`) and starts the
 * service or the tests on the embedded database. As root the embedded server runs as the
 * `postgres` user, who cannot enter that folder: both stop at once with one line naming the
 * folder and the ways out. As anyone else, the service starts.
 */
describe('first start from a clone in a folder only its owner can enter', () => {
  const parent = mkdtempSync(path.join(tmpdir(), 'cil-private-'));
  const clone = path.join(parent, 'project');
  const asRoot = process.getuid?.() === 0;

  beforeAll(() => {
    expect(statSync(parent).mode & 0o777).toBe(0o700);
    execFileSync('git', ['clone', '-q', REPO, clone]);
    // What `npm ci` and the build would put there; hard links, so the binaries are inside the folder.
    execFileSync('cp', ['-al', path.join(REPO, 'node_modules'), path.join(clone, 'node_modules')]);
    execFileSync('cp', ['-r', path.join(REPO, 'dist'), path.join(clone, 'dist')]);
  });
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it('the service: one line naming the folder and the ways out (as root), or a healthy start', async () => {
    const port = await freePort();
    if (asRoot) {
      const { code, output } = await run(clone, ['dist/main.js'], { PORT: String(port), HOST: '127.0.0.1' });
      expect(code).toBe(1);
      const lines = output.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(output).toContain(`cannot enter ${parent} (mode 700)`);
      expect(output).toMatch(/DATABASE_URL/);
      expect(output).not.toMatch(/EACCES/);
    } else {
      const child = spawn(process.execPath, ['dist/main.js'], {
        cwd: clone,
        env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1' },
      });
      try {
        const deadline = Date.now() + 60_000;
        let status = 0;
        while (Date.now() < deadline && status !== 200) {
          status = await fetch(`http://127.0.0.1:${port}/health`).then(
            (r) => r.status,
            () => 0,
          );
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect(status).toBe(200);
      } finally {
        child.kill('SIGTERM');
      }
    }
  });

  it('the tests: the global setup stops with the same line before starting a database (as root)', async () => {
    if (!asRoot) return; // elsewhere the embedded test database starts as the current user, as every suite shows
    const { code, output } = await run(clone, ['-e', "import('./test/global-setup.mjs').then((m) => m.default())"], {});
    expect(code).toBe(1);
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).toContain(
      `cannot start the test database: the embedded PostgreSQL runs as the system user "postgres"`,
    );
    expect(output).toContain(`cannot enter ${parent} (mode 700)`);
  });
});
