// Several processes serving one project (two `svc serve` on one checkout, PM2's
// instances) keep one set of counts in shoebox/metrics/routes.json: each save adds what
// its process counted since its last one, under a lock. Each used to write its own
// totals over the others', so the file held one process's counts.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { constants, readFileSync } from 'node:fs';
import { lstat, lutimes, mkdir, open, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MetricsFile, type Save, type SavedRoute } from '../../runtime/shoebox/metrics/metrics-file.ts';
import { svcServer } from '../support/cli.ts';
import { makeProject, removeProject } from '../support/project.ts';
import { buildProject, get } from '../endpoints/support.ts';

const hello = (hits: number): SavedRoute => ({ method: 'GET', path: '/hello/{name}', hits, totalMs: hits });

const saveOf = (writer: string, save: number, added: Save['added']): Save => ({ writer, save, added, ifUnreadable: [], damaged: () => assert.fail('the file is not damaged') });

async function savedHits(file: string): Promise<number | undefined> {
  const saved = JSON.parse(await readFile(file, 'utf8')) as { routes: SavedRoute[] };
  return saved.routes.find((route) => route.path === '/hello/{name}')?.hits;
}

describe('metrics of several processes serving one project', () => {
  let root: string;
  before(async () => {
    root = await buildProject();
  });
  after(() => removeProject(root));

  it('adds up two svc serve processes, and a scrape shows what the other saved', async () => {
    const [first, second] = await Promise.all([svcServer(root, ['serve', '--port', '0']), svcServer(root, ['serve', '--port', '0'])]);
    for (let i = 0; i < 7; i++) await get(`${first!.url}/hello/a${i}`);
    for (let i = 0; i < 5; i++) await get(`${second!.url}/hello/b${i}`);
    await second!.stop(); // saves on its way out
    const scrape = JSON.parse((await get(`${first!.url}/svc/metrics`, { headers: { accept: 'application/json' } })).body) as { routes: SavedRoute[] };
    assert.equal(scrape.routes.find((route) => route.path === '/hello/{name}')?.hits, 12);
    await first!.stop();
    assert.equal(await savedHits(join(root, 'shoebox', 'metrics', 'routes.json')), 12);
  });
});

describe('MetricsFile', () => {
  let root: string;
  let file: string;
  before(async () => {
    root = await makeProject({});
    file = MetricsFile.of(root).path;
  });
  after(() => removeProject(root));

  it('loses no count of saves that overlap', async () => {
    await rm(file, { force: true });
    // One MetricsFile each, as each process has its own.
    await Promise.all(Array.from({ length: 25 }, (_, i) => MetricsFile.of(root).save(saveOf(`w${i}`, 1, () => [hello(1)]))));
    assert.equal(await savedHits(file), 25);
  });

  it("tells a save the number of its writer's last save that reached the file", async () => {
    await rm(file, { force: true });
    const metrics = MetricsFile.of(root);
    const seen: number[] = [];
    await metrics.save(saveOf('w', 3, (last) => (seen.push(last), [hello(2)])));
    // A process that exits during its save 4 cannot tell whether it reached the file.
    metrics.saveNow(saveOf('w', 5, (last) => (seen.push(last), [hello(last === 3 ? 10 : 1)])));
    metrics.saveNow(saveOf('other', 1, (last) => (seen.push(last), [])));
    assert.deepEqual(seen, [0, 3, 0]);
    assert.equal(await savedHits(file), 12);
  });

  it('writes at exit without waiting for the lock its own save under way holds', async () => {
    await rm(file, { force: true });
    const metrics = MetricsFile.of(root);
    let atExit: { ms: number; hits: number | undefined } | undefined;
    await metrics.save(
      saveOf('w', 1, () => {
        // Inside the save: the lock is held, and `process.exit()` would end the process here.
        const started = performance.now();
        metrics.saveNow(saveOf('w', 2, () => [hello(3)]));
        atExit = { ms: performance.now() - started, hits: JSON.parse(readFileSync(file, 'utf8')).routes[0].hits };
        return [hello(1)];
      }),
    );
    assert.equal(atExit?.hits, 3);
    // It used to wait until the lock looked abandoned (10 s).
    assert.ok(atExit.ms < 5000, `saveNow waited ${atExit.ms} ms`);
  });

  it('takes over a lock its holder left behind, and waits for one that is held', async () => {
    await rm(file, { force: true });
    const lock = `${file}.lock`;
    await mkdir(lock, { recursive: true });
    const minuteAgo = new Date(Date.now() - 60_000);
    await utimes(lock, minuteAgo, minuteAgo);
    await MetricsFile.of(root).save(saveOf('w', 1, () => [hello(1)]));
    assert.equal(await savedHits(file), 1);

    await mkdir(lock);
    let done = false;
    const saving = MetricsFile.of(root).save(saveOf('w', 2, () => [hello(1)])).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(done, false, 'saved while another process held the lock');
    await rm(lock, { recursive: true });
    await saving;
    assert.equal(await savedHits(file), 2);
  });

  it('takes over a lock dated ahead of the clock, and a link to nothing left as the lock', async () => {
    const lock = `${file}.lock`;
    const withinSeconds = <T>(promise: Promise<T>): Promise<T> =>
      Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('the save still waits for the lock')), 3000).unref())]);

    // Left by a crash before the clock was set back an hour: it used to look held for that hour.
    await rm(file, { force: true });
    await mkdir(lock, { recursive: true });
    const hourAhead = new Date(Date.now() + 3_600_000);
    await utimes(lock, hourAhead, hourAhead);
    await withinSeconds(MetricsFile.of(root).save(saveOf('w', 1, () => [hello(1)])));
    assert.equal(await savedHits(file), 1);

    // Its `stat` said "gone" and the save tried again at once, forever, at full CPU.
    await symlink(join(root, 'no-such-folder'), lock);
    const minuteAgo = new Date(Date.now() - 60_000);
    await lutimes(lock, minuteAgo, minuteAgo);
    await withinSeconds(MetricsFile.of(root).save(saveOf('w', 2, () => [hello(1)])));
    assert.equal(await savedHits(file), 2);
  });

  it('replaces a FIFO in the file\'s place, without waiting for a writer', async () => {
    await rm(file, { force: true });
    execFileSync('mkfifo', [file]);
    const problems: string[] = [];
    // The read used to wait for a writer: no scrape answered, and no exit on SIGTERM.
    const saving = MetricsFile.of(root).save({ writer: 'w', save: 1, added: () => [hello(1)], ifUnreadable: [hello(2)], damaged: (problem) => problems.push(problem) });
    const routes = await Promise.race([saving, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the save still waits')), 3000).unref())]).finally(() =>
      // A read still waiting is let go: a writer comes and goes.
      open(file, constants.O_WRONLY | constants.O_NONBLOCK).then((handle) => handle.close(), () => {}),
    );
    assert.deepEqual(routes, [hello(3)]);
    assert.match(problems[0]!, /^is unreadable \(not a regular file .*\); it is replaced/);
    assert.equal(await savedHits(file), 3);
  });

  it('writes through a link in the file\'s place, and leaves the link', async () => {
    const elsewhere = join(root, 'volume', 'routes.json');
    await mkdir(join(root, 'volume'), { recursive: true });
    await writeFile(elsewhere, JSON.stringify({ version: 1, routes: [hello(7)] }));
    await rm(file, { force: true });
    await symlink(elsewhere, file);
    await MetricsFile.of(root).save(saveOf('w', 1, () => [hello(1)]));
    MetricsFile.of(root).saveNow(saveOf('v', 1, () => [hello(2)]));
    // The link was replaced with a file of its own, and the volume kept the counts of before.
    assert.ok((await lstat(file)).isSymbolicLink(), 'the link was replaced');
    assert.equal(await savedHits(elsewhere), 10);
    await rm(file);
  });

  it('replaces an unreadable file with what the process last saw in it, and says so', async () => {
    await writeFile(file, '{"routes": [');
    const problems: string[] = [];
    const routes = await MetricsFile.of(root).save({ writer: 'w', save: 1, added: () => [hello(1)], ifUnreadable: [hello(4)], damaged: (problem) => problems.push(problem) });
    assert.deepEqual(routes, [hello(5)]);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /^is unreadable \(not JSON: .*\); it is replaced with the counts this process holds$/);
  });
});
