// The dashboard through a real build: versions, counts, build time and working links.
import assert from 'node:assert/strict';
import { readFile, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { removeProject, repoRoot } from '../support/project.ts';
import { buildProject, get, serve, type Served } from './support.ts';

describe('dashboard endpoint', () => {
  let root: string;
  let served: Served;
  before(async () => {
    root = await buildProject();
    // As after a rebuild for a controller's edit, which leaves an unchanged manifest alone.
    const earlier = new Date('2020-01-01T00:00:00Z');
    await utimes(join(root, '.svc', 'manifest.json'), earlier, earlier);
    served = await serve(root);
  });
  after(async () => {
    await served.stop();
    await removeProject(root);
  });

  it('shows Node.js and framework versions, route count, uptime, memory and the last build', async () => {
    await get(`${served.url}/hello/ann`);
    const page = await get(`${served.url}/svc/dashboard`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    const version = (JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
    const text = page.body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    assert.ok(text.includes(`Framework ${version} svc`), text);
    assert.ok(text.includes(`Node.js ${process.version}`), text);
    assert.ok(text.includes('Routes 3 + 5 built-in'), text);
    assert.match(text, /Uptime \d+ (s|min)/);
    assert.match(text, /Memory [\d.]+ MiB heap [\d.]+ MiB of [\d.]+ MiB/);
    const built = (await stat(join(root, '.svc', 'app.mjs'))).mtime.toISOString().slice(0, 19).replace('T', ' ');
    assert.ok(text.includes(`Last build`) && text.includes(`${built} UTC`), text);
    assert.match(text, /GET \/hello\/\{name\} routes\/api\.ts:\d+:\d+ 1 [\d.]+ ms/);
    assert.doesNotMatch(page.body, /(src|href)="(https?:)?\/\//, 'no CDN');
  });

  it('links to docs, health, metrics, the user guide and the settings, and every link answers', async () => {
    const page = (await get(`${served.url}/svc/dashboard`)).body;
    const links = [...page.matchAll(/<a class="link" href="([^"]+)"><strong>([^<]+)<\/strong>/g)].map((m) => [m[2], m[1]!.replace(/&#x3D;/g, '=')]);
    assert.deepEqual(links, [
      ['API docs', '/svc/docs'],
      ['Health', '/svc/health'],
      ['Metrics', '/svc/metrics'],
      ['User guide', '/svc/dashboard?page=guide'],
      ['Settings', '/svc/dashboard?page=settings'],
    ]);
    for (const [, href] of links) assert.equal((await get(`${served.url}${href}`)).status, 200, href);

    const guide = (await get(`${served.url}/svc/dashboard?page=guide`)).body;
    assert.match(guide, /<title>svc user guide · svc /);
    assert.match(guide, /<h1 id="svc-user-guide">svc user guide<\/h1>/);
    // A tab's title is text: the heading's code span shows as its words, not its backticks.
    assert.match((await get(`${served.url}/svc/dashboard?page=database`)).body, /<title>Database and cobble migrations · svc /);
    const settings = (await get(`${served.url}/svc/dashboard?page=settings`)).body;
    assert.match(settings, /&quot;endpoints&quot;: \{/);
  });

  it('shows the guide as HTML: its #section links have their anchors, its links to docs/*.md stay on the dashboard', async () => {
    const guide = (await get(`${served.url}/svc/dashboard?page=guide`)).body;
    const anchors = new Set([...guide.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
    const sections = [...guide.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(sections.length > 0);
    for (const section of sections) assert.ok(anchors.has(section), `#${section} has no heading`);
    const documents = [...new Set([...guide.matchAll(/href="(\?page=[^"#]+)/g)].map((m) => m[1]!.replace(/&amp;/g, '&')))];
    assert.deepEqual(documents.sort(), ['?page=database', '?page=ip-rules', '?page=knots']);
    for (const query of documents) {
      const page = await get(`${served.url}/svc/dashboard${query}`);
      assert.equal(page.status, 200);
      assert.match(page.body, /<article class="prose"><h1 id="/);
    }
    assert.match(guide, /<pre><code class="language-ts">/);
    assert.ok(!guide.includes('```'), 'every fence rendered');
    // A name that is no document gets the dashboard, never a file outside docs/.
    for (const name of ['../package', '..%2Fpackage', 'nope']) {
      assert.match((await get(`${served.url}/svc/dashboard?page=${name}`)).body, /<h1>Dashboard<\/h1>/);
    }
  });
});
