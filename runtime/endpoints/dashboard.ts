// GET /<endpoints.dashboard>: an HTML overview of the running server. The same page
// shows the user guide (`?page=guide`) and the settings the build runs with
// (`?page=settings`), so every link works without another route.
import { stat } from 'node:fs/promises';
import { DEFAULT_CONFIG } from '../config.ts';
import type { BuiltinFactory } from '../server/builtins.ts';
import { formatBytes, formatDuration, formatMs } from './format.ts';
import { pageQuery, readGuidePages } from './guide.ts';
import { buildFile, builtinPath, docsFolder, loadPage } from './pages.ts';

export const dashboard: BuiltinFactory = async ({ app, root, metrics }) => {
  const { manifest } = app;
  const render = await loadPage(root, 'dashboard');
  const guide = await readGuidePages(docsFolder(root));
  const self = builtinPath(manifest, 'dashboard', DEFAULT_CONFIG.endpoints.dashboard);
  const metricsPath = builtinPath(manifest, 'metrics', DEFAULT_CONFIG.endpoints.metrics);
  const frame = {
    framework: manifest.framework,
    home: self,
    links: [
      { label: 'API docs', href: builtinPath(manifest, 'docs', DEFAULT_CONFIG.endpoints.docs), note: 'Swagger UI for the generated OpenAPI document' },
      { label: 'Health', href: builtinPath(manifest, 'health', DEFAULT_CONFIG.endpoints.health), note: 'Database, cache folder and services, as JSON' },
      { label: 'Metrics', href: metricsPath, note: 'Prometheus text; JSON with Accept: application/json' },
      { label: 'User guide', href: `${self}${pageQuery('guide')}`, note: 'Routes, controllers, knots, the CLI' },
      { label: 'Settings', href: `${self}${pageQuery('settings')}`, note: 'svc.json as built, defaults filled in' },
    ],
  };
  const settings = `${JSON.stringify(manifest.config, null, 2)}\n`;
  const appRoutes = manifest.routes.filter((route) => route.handler.kind !== 'builtin');

  return async (ctx) => {
    ctx.header('cache-control', 'no-store');
    const name = ctx.query.get('page');
    if (name === 'settings') return render({ ...frame, title: 'Settings', file: 'svc.json', text: settings });
    // Any docs/*.md: the guide links to its siblings. An unknown name gets the dashboard.
    const page = name === null ? undefined : await guide.page(name);
    if (page) return render({ ...frame, title: page.title, file: `docs/${name}.md`, html: page.html });
    if (name === 'guide') return render({ ...frame, title: 'User guide', file: 'docs/guide.md', text: 'The user guide is not installed with this copy of svc.' });
    const memory = process.memoryUsage();
    const uptime = process.uptime();
    const built = await lastBuilt(root);
    const source = new Map(appRoutes.map((route) => [route.id, route.source]));
    return render({
      ...frame,
      title: 'Dashboard',
      cards: [
        { label: 'Framework', value: manifest.framework, note: 'svc' },
        { label: 'Node.js', value: process.version, note: `${process.platform} ${process.arch}` },
        { label: 'Routes', value: appRoutes.length, note: `+ ${manifest.routes.length - appRoutes.length} built-in` },
        { label: 'Uptime', value: formatDuration(uptime), note: `since ${new Date(Date.now() - uptime * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC` },
        { label: 'Memory', value: formatBytes(memory.rss), note: `heap ${formatBytes(memory.heapUsed)} of ${formatBytes(memory.heapTotal)}` },
        {
          label: 'Last build',
          value: built ? `${formatDuration((Date.now() - built.getTime()) / 1000)} ago` : 'unknown',
          note: built ? `${built.toISOString().slice(0, 19).replace('T', ' ')} UTC` : 'no .svc/manifest.json or .svc/app.mjs',
        },
      ],
      routes: (await metrics.current()).map((stat) => ({
        method: stat.method,
        path: stat.path,
        source: source.get(stat.id),
        hits: stat.hits.toLocaleString('en'),
        avg: stat.hits === 0 ? '–' : formatMs(stat.avgMs),
      })),
      metricsPath,
      pid: process.pid,
    });
  };
};

/**
 * When the build last changed: `svc build` rewrites only the files whose text changed, so
 * a rebuild for a controller's edit (every `svc tread` save) leaves the manifest alone and
 * writes the bundle. The newer of the two is the time of the build being served.
 */
async function lastBuilt(root: string): Promise<Date | null> {
  const times = await Promise.all(['manifest.json', 'app.mjs'].map((file) => stat(buildFile(root, file)).then((info) => info.mtimeMs, () => 0)));
  const newest = Math.max(...times);
  return newest === 0 ? null : new Date(newest);
}
