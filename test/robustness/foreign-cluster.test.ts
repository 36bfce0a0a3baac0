// `svc serve` forked by a cluster primary that is not svc's (PM2's cluster mode): each
// worker serves as a process of its own. It took itself for a worker of `svc serve
// --workers` and sent its log lines, counts and scrapes to a primary that drops them:
// every log line and count was lost, and the metrics endpoint never answered.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { svc } from '../support/cli.ts';
import { makeProject, removeProject, repoRoot } from '../support/project.ts';

const ROUTES = `import type { Router } from 'svc';

export default (router: Router) => {
  router.get('/users/{id}', (id: number) => ({ id, pid: process.pid }));
};
`;
const ROUNDS = 10;
const AT_ONCE = 20;

/** A new connection per request, so that the cluster hands them to both workers. */
function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { connection: 'close', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.setTimeout(5000, () => req.destroy(new Error(`no answer to ${path} within 5 s`)));
    req.on('error', reject).end();
  });
}

describe('svc serve under a cluster primary that is not svc', () => {
  let root: string;
  let primary: ChildProcess;
  let output = '';
  const pids = new Set<number>();
  let scraped: Array<{ path: string; hits: number }> = [];

  before(async () => {
    root = await makeProject({ 'routes/app.ts': ROUTES });
    assert.equal(svc(root, ['build']).status, 0);
    primary = spawn(process.execPath, [join(import.meta.dirname, 'foreign-primary.mjs'), join(repoRoot, 'bin', 'svc.js'), '2', '--port', '0', '--workers', '2'], { cwd: root });
    primary.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    primary.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    // Workers listening on port 0 are all given the same port by the cluster.
    const port = await new Promise<number>((resolve, reject) => {
      primary.stdout!.on('data', () => {
        const ready = /^ready (\d+)$/m.exec(output);
        if (ready) resolve(Number(ready[1]));
      });
      primary.once('exit', () => reject(new Error(`the primary exited:\n${output}`)));
    });
    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all(
        Array.from({ length: AT_ONCE }, async (_, i) => {
          pids.add((JSON.parse((await get(port, `/users/${i}`)).body) as { pid: number }).pid);
          assert.equal((await get(port, `/missing/${round}/${i}`)).status, 404);
        }),
      );
    }
    const metrics = await get(port, '/svc/metrics', { accept: 'application/json' });
    assert.equal(metrics.status, 200, metrics.body);
    scraped = (JSON.parse(metrics.body) as { routes: typeof scraped }).routes;
    const exited = new Promise((resolve) => primary.once('exit', resolve));
    primary.kill('SIGTERM');
    await exited;
  });
  after(() => removeProject(root));

  it('is served by both workers, each saying where it serves and that --workers is not its to use', () => {
    assert.equal(pids.size, 2, 'the cluster gave every connection to one worker');
    assert.equal(output.match(/svc: serving http:\/\/127\.0\.0\.1:\d+/g)?.length, 2, output);
    assert.equal(output.match(/svc: --workers 2 is ignored in a process another cluster primary forked \(PM2's cluster mode\): it starts the instances/g)?.length, 2, output);
    assert.match(output, /exit codes 0 0/);
  });

  it('writes the log line of every 404, from both workers', async () => {
    const lines = (await readFile(join(root, 'shoebox', 'logs', 'svc.log'), 'utf8')).trimEnd().split('\n');
    const missing = lines.filter((line) => / \[404\] GET \/missing\/\d+\/\d+ 404 from /.test(line));
    assert.equal(new Set(missing.map((line) => / GET (\S+) /.exec(line)![1])).size, ROUNDS * AT_ONCE);
  });

  it('answers its metrics endpoint, and saves the counts of both workers', async () => {
    const hits = scraped.find((route) => route.path === '/users/{id}')!.hits;
    assert.ok(hits > 0 && hits <= ROUNDS * AT_ONCE, `scraped ${hits}`);
    const saved = JSON.parse(await readFile(join(root, 'shoebox', 'metrics', 'routes.json'), 'utf8')) as { routes: Array<{ path: string; hits: number }> };
    assert.equal(saved.routes.find((route) => route.path === '/users/{id}')?.hits, ROUNDS * AT_ONCE);
  });
});
