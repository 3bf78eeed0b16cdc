import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keptSecret } from './kept-secret';

describe('keptSecret', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kept-secret-'));
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('makes one value for many concurrent first readers, every one of them reading it whole', async () => {
    const file = path.join(dir, 'nested', 'secret');
    let made = 0;
    const results = await Promise.all(
      Array.from({ length: 40 }, () => keptSecret(file, () => `value-${++made}-${'x'.repeat(4096)}`)),
    );
    expect(new Set(results.map((r) => r.value)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(results[0].value).toMatch(/^value-\d+-x{4096}$/);
    expect(await fs.readdir(path.dirname(file))).toEqual(['secret']);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });

  it('keeps the value across calls and refuses an empty file', async () => {
    const file = path.join(dir, 'secret');
    const first = await keptSecret(file, () => 'one\n');
    expect(first).toEqual({ value: 'one', created: true });
    // A kept secret is only read: nothing is made, nothing written beside it.
    const made = () => {
      throw new Error('made again');
    };
    expect(await keptSecret(file, made)).toEqual({ value: 'one', created: false });
    expect(await fs.readdir(dir)).toEqual(['secret']);
    await fs.writeFile(file, '');
    await expect(keptSecret(file, () => 'three')).rejects.toThrow(/is empty/);
  });

  it('creates the file exclusively where the filesystem has no hard links, still one value for all', async () => {
    jest.spyOn(fs, 'link').mockRejectedValue(Object.assign(new Error('no links here'), { code: 'EPERM' }));
    const file = path.join(dir, 'secret');
    let made = 0;
    const results = await Promise.all(Array.from({ length: 20 }, () => keptSecret(file, () => `value-${++made}`)));
    expect(new Set(results.map((r) => r.value)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await fs.readdir(dir)).toEqual(['secret']);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });

  it('fails on any other error of the link, leaving no draft behind', async () => {
    jest.spyOn(fs, 'link').mockRejectedValue(Object.assign(new Error('disk gone'), { code: 'EIO' }));
    const file = path.join(dir, 'secret');
    await expect(keptSecret(file, () => 'one')).rejects.toThrow('disk gone');
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('removes a file it could not write whole where it had no hard links, so the next start makes one', async () => {
    jest.spyOn(fs, 'link').mockRejectedValue(Object.assign(new Error('no links here'), { code: 'ENOTSUP' }));
    const open = fs.open.bind(fs);
    const file = path.join(dir, 'secret');
    jest.spyOn(fs, 'open').mockImplementation(async (target, flags, mode) => {
      const handle = await open(target, flags, mode);
      if (target === file) jest.spyOn(handle, 'sync').mockRejectedValue(new Error('disk full'));
      return handle;
    });
    await expect(keptSecret(file, () => 'one')).rejects.toThrow('disk full');
    expect(await fs.readdir(dir)).toEqual([]);
    jest.restoreAllMocks();
    expect(await keptSecret(file, () => 'two')).toEqual({ value: 'two', created: true });
  });
});
