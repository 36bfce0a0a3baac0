// A small application built with the real `svc build` and served by the real
// `svc serve` in a child process, so a crash shows as an exit, not as a failed test run.
import assert from 'node:assert/strict';
import { svc, svcServer, type RunningSvc } from '../support/cli.ts';
import { makeProject, removeProject } from '../support/project.ts';
import type { SvcConfig } from '../../runtime/config.ts';

const ROUTES = `import { existsSync, readFileSync } from 'node:fs';
import { RateLimitKnots, type Context, type Router } from 'svc';

/** A rate limit on a clock a test sets back: Date.now() plus the ms in the file clock-offset */
class SteppedClockLimit extends RateLimitKnots {
  protected override now(): number {
    return Date.now() + (existsSync('clock-offset') ? Number(readFileSync('clock-offset', 'utf8')) : 0);
  }
}

export default (router: Router) => {
  router.get('/', () => 'home');
  router.get('/users/{id}', (id: number) => ({ id }));
  router.get('/hello/{name?}', (name?: string) => ({ hello: name ?? 'world' }));
  router.get('/files/{name}', (name: string) => ({ name }));
  router.get('/sorted/{order}', (order: 'asc' | 'desc') => ({ order }));
  router.post('/echo', function (this: Context) {
    return { bytes: this.body.length };
  });
  router.get('/admin/panel', () => 'admin');
  /** Which process answered (\`svc serve --workers\`) */
  router.get('/pid', () => ({ pid: process.pid }));
  router.group({ middleware: [[RateLimitKnots, [5, 600]]] }, (limited) => {
    /** Five requests per client in ten minutes, across every worker */
    limited.get('/limited', () => ({ pid: process.pid }));
  });
  router.group({ middleware: [[SteppedClockLimit, [2, 60]]] }, (limited) => {
    /** Two requests per client a minute, on a clock the test may set back */
    limited.get('/stepped', () => ({ pid: process.pid }));
  });
  router.group({ middleware: [[RateLimitKnots, [2, 2]]] }, (limited) => {
    /** Two requests per client in two seconds */
    limited.get('/limited-briefly', () => ({ pid: process.pid }));
  });
  /** Ends the process that answers it, as a careless handler may */
  router.get('/exit', () => process.exit(3));
  /** Throws, after answering, where nothing catches it: in a timer */
  router.get('/crash', () => {
    setTimeout(() => {
      throw new TypeError('the timer broke');
    }, 10);
    return 'soon';
  });
  /** Starts a timer that never ends, as an application's own background work may */
  router.get('/heartbeat', () => {
    setInterval(() => undefined, 1000);
    return 'beating';
  });
  /** Answers after \`?ms=\` milliseconds (at most 5 s): a request still in flight at shutdown */
  router.get('/slow', async function (this: Context) {
    const ms = Math.min(Number(this.query.get('ms') ?? 1000) || 0, 5000);
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { waited: ms };
  });
};
`;

export interface Served {
  svc: RunningSvc;
  root: string;
  close(): Promise<void>;
}

/** Builds the application with `server` settings in svc.json and runs `svc serve --port 0 …args`. */
export async function serveApp(server: Partial<SvcConfig['server']> = {}, args: string[] = []): Promise<Served> {
  const svcJson = { server, ip: { routes: { '/admin': { whitelist: ['10.9.8.7'] } } } };
  const root = await makeProject({ 'routes/app.ts': ROUTES, 'svc.json': JSON.stringify(svcJson, null, 2) });
  const built = svc(root, ['build']);
  assert.equal(built.status, 0, `svc build failed:\n${built.stdout}${built.stderr}`);
  const running = await svcServer(root, ['serve', '--port', '0', ...args]);
  return {
    svc: running,
    root,
    async close() {
      await running.stop();
      await removeProject(root);
    },
  };
}

/** Resolves with the exit code of a child that was asked to stop. */
export function exitCode(running: RunningSvc): Promise<number | null> {
  const { child } = running;
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
