// HTML error pages, rendered with Handlebars. Looked up per status, most specific
// folder first: the app's weave/Views/errors/, then the project's shoebox/views/, then
// the defaults shipped with svc; `<status>.hbs` in any of them before `error.hbs`.
// Everything is read and compiled once, at start-up, so rendering is synchronous.
import { readdir } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import Handlebars from 'handlebars';
import { logAndWarn, type LogWriter } from '../shoebox/log.ts';
import { frameworkRoot, shoeboxPath } from '../shoebox/paths.ts';
import { readRegularFile } from '../shoebox/regular-file.ts';

export interface ErrorPageData {
  status: number;
  title: string;
  detail: string;
  requestId: string;
  /** Only under `svc tread`. */
  stack?: string | undefined;
}

type Template = (data: ErrorPageData) => string;

/** A page's template and its file, project-relative, for the log line that says it failed. */
interface Page {
  file: string;
  template: Template;
}

/** `404.hbs`, `error.hbs`: the files of a views folder that are pages. */
export const PAGE_FILE = /^(\d{3}|error)\.hbs$/;

/** Used only when no folder has a page (svc's own views could not be found). */
const LAST_RESORT = '<!doctype html><title>{{status}} {{title}}</title><h1>{{status}} {{title}}</h1><p>{{detail}}</p>';

export class ErrorPages {
  private readonly cache = new Map<number, Page>();
  /** Pages that failed to render: skipped from then on, as if they were not there. */
  private readonly broken = new Set<Page>();

  private constructor(
    /** Most specific folder first; each maps `404`/`error` to its page. */
    private readonly folders: ReadonlyArray<ReadonlyMap<string, Page>>,
    private readonly lastResort: Page,
    private readonly log: LogWriter,
  ) {}

  static async load(root: string, log: LogWriter): Promise<ErrorPages> {
    const handlebars = Handlebars.create();
    const svcRoot = frameworkRoot(root);
    const candidates = [join(root, 'weave', 'Views', 'errors'), shoeboxPath(root, 'views')];
    // The demo is svc's own folder: its views are listed once.
    if (svcRoot && svcRoot !== resolve(root)) candidates.push(join(svcRoot, 'shoebox', 'views'));
    const folders = await Promise.all(candidates.map((folder) => loadFolder(handlebars, root, folder)));
    return new ErrorPages(folders, { file: 'svc', template: handlebars.compile(LAST_RESORT) }, log);
  }

  render(data: ErrorPageData): string {
    for (;;) {
      let page = this.cache.get(data.status);
      if (!page) {
        page = this.lookup(String(data.status));
        this.cache.set(data.status, page);
      }
      try {
        return page.template(data);
      } catch (e) {
        if (page === this.lastResort) throw e;
        this.drop(page, e as Error);
      }
    }
  }

  /**
   * A page that parses can still fail as it renders (an unknown helper, a partial, which
   * error pages never have): every later error would fail the same way, so it is dropped,
   * said once, and the page it overrides is used in its place, svc's own at the end.
   */
  private drop(page: Page, failure: Error): void {
    this.broken.add(page);
    this.cache.clear();
    const message = `The error page ${page.file} failed to render (${failure.message}); the page it overrides is served in its place from now on.`;
    logAndWarn(this.log, 'error-page', message);
  }

  private lookup(status: string): Page {
    // A page for this very status wins over any folder's catch-all `error.hbs`.
    for (const name of [status, 'error']) {
      for (const folder of this.folders) {
        const page = folder.get(name);
        if (page && !this.broken.has(page)) return page;
      }
    }
    return this.lastResort;
  }
}

async function loadFolder(handlebars: typeof Handlebars, root: string, folder: string): Promise<Map<string, Page>> {
  const pages = new Map<string, Page>();
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return pages; // an app without custom pages
  }
  for (const name of names.sort()) {
    const named = PAGE_FILE.exec(name);
    if (!named) continue;
    let source: string;
    try {
      source = (await readRegularFile(join(folder, name))).toString('utf8');
    } catch (e) {
      // A folder by that name, a FIFO, a file this process may not read: said in one line, as a page that does not parse is.
      throw new ErrorPageError(`Error page ${join(folder, name)} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}). Make it a readable file, or remove it.`);
    }
    try {
      handlebars.parse(source); // compile() is lazy: surface syntax errors at start-up, not on a request
      pages.set(named[1]!, { file: relative(root, join(folder, name)).split('\\').join('/'), template: handlebars.compile(source) });
    } catch (e) {
      throw new ErrorPageError(`Error page ${join(folder, name)} is not a valid Handlebars template: ${(e as Error).message.split('\n').at(-1)}. Fix it and run \`svc build\`, which points at the line.`);
    }
  }
  return pages;
}

/** A page that does not parse, said in one line by `svc serve` and `svc tread` (SVC010 at build time). */
export class ErrorPageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ErrorPageError';
  }
}
