import { expect } from 'chai';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataDirRefused, securePrivateDataDir } from '../../src/platform/db/data-dir.ts';
import { openEmbeddedDataDir } from '../../src/platform/db/embedded-default.ts';

const mode = async (file: string) => (await stat(file)).mode & 0o777;

function refusal(run: () => void): DataDirRefused {
  try {
    run();
  } catch (error) {
    if (error instanceof DataDirRefused) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('the data directory is private (DATA_DIR)', function () {
  if (process.platform === 'win32') return;
  let parent: string;
  beforeEach(async () => (parent = await mkdtemp(path.join(tmpdir(), 'data-dir-'))));
  afterEach(async () => rm(parent, { recursive: true, force: true }));

  it('makes a missing one 0700, parents included', async () => {
    const dir = path.join(parent, 'a', 'data');
    securePrivateDataDir(dir);
    expect(await mode(dir)).to.equal(0o700);
    expect(await mode(path.join(parent, 'a'))).to.equal(0o700);
  });

  it('refuses one that others may write, changing nothing in it', async () => {
    for (const loose of [0o777, 0o775, 0o757, 0o720]) {
      const dir = path.join(parent, `loose-${loose.toString(8)}`);
      await mkdir(dir);
      await writeFile(path.join(dir, 'keep.txt'), 'x', { mode: 0o666 });
      await chmod(dir, loose);
      const refused = refusal(() => securePrivateDataDir(dir, { notice: () => expect.fail('no notice on a refusal') }));
      expect(refused.message).to.contain(dir).and.contain(`mode 0${loose.toString(8)}`).and.contain('other users');
      expect(await mode(dir)).to.equal(loose);
      expect(await readdir(dir)).to.deep.equal(['keep.txt']);
    }
  });

  it('refuses one that another user owns', async () => {
    const dir = path.join(parent, 'theirs');
    await mkdir(dir, { mode: 0o700 });
    const owner = (await stat(dir)).uid;
    const refused = refusal(() => securePrivateDataDir(dir, { uid: owner + 1 }));
    expect(refused.message).to.contain(`belongs to user ${owner}`).and.contain(`runs as user ${owner + 1}`);
  });

  it('refuses a path that is not a directory', async () => {
    const file = path.join(parent, 'file');
    await writeFile(file, '');
    expect(refusal(() => securePrivateDataDir(file)).message).to.contain('is not a directory');
  });

  it('makes one that others may only read private, with everything in it, and says so', async () => {
    // as releases before issue 37 left it: the directory 0755, PGlite's files 0666
    const dir = path.join(parent, 'data');
    await mkdir(path.join(dir, 'pgdata', 'base'), { recursive: true });
    await writeFile(path.join(dir, 'pgdata', 'base', '1249'), 'x');
    await writeFile(path.join(dir, 'demo-credentials.json'), '{}');
    await chmod(path.join(dir, 'pgdata', 'base', '1249'), 0o666);
    await chmod(path.join(dir, 'demo-credentials.json'), 0o644);
    await chmod(path.join(dir, 'pgdata', 'base'), 0o755);
    await chmod(path.join(dir, 'pgdata'), 0o755);
    await chmod(dir, 0o755);
    const notices: string[] = [];
    securePrivateDataDir(dir, { notice: (line) => notices.push(line) });
    expect(await mode(dir)).to.equal(0o700);
    expect(await mode(path.join(dir, 'pgdata'))).to.equal(0o700);
    expect(await mode(path.join(dir, 'pgdata', 'base'))).to.equal(0o700);
    expect(await mode(path.join(dir, 'pgdata', 'base', '1249'))).to.equal(0o600);
    expect(await mode(path.join(dir, 'demo-credentials.json'))).to.equal(0o600);
    expect(notices).to.have.length(1);
    expect(notices[0]).to.contain(dir).and.contain('mode 0755').and.contain('4 entries').and.contain('private');
    securePrivateDataDir(dir, { notice: (line) => notices.push(line) });
    expect(notices).to.have.length(1); // private already: nothing to say
  });

  it('the embedded database refuses to open in a directory others may write, and writes nothing there', async () => {
    const dir = path.join(parent, 'shared');
    await mkdir(dir);
    await chmod(dir, 0o777);
    const failed = await openEmbeddedDataDir(dir).then(() => null, (error: unknown) => error);
    expect(failed).to.be.instanceOf(DataDirRefused);
    expect(await readdir(dir)).to.deep.equal([]);
  });
});
