// HTML error pages, rendered with Handlebars. Looked up per status, most specific
// folder first: the app's weave/Views/errors/, then the project's shoebox/views/, then
// the defaults shipped with svc; `<status>.hbs` in any of them before `error.hbs`.
// Everything is read and compiled once, at start-up, so rendering is synchronous.
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import Handlebars from 'handlebars';
import { frameworkRoot, shoeboxPath } from '../shoebox/paths.ts';

export interface ErrorPageData {
  status: number;
  title: string;
  detail: string;
  requestId: string;
  /** Only under `svc tread`. */
  stack?: string | undefined;
}

type Template = (data: ErrorPageData) => string;

/** `404.hbs`, `error.hbs`: the files of a views folder that are pages. */
export const PAGE_FILE = /^(\d{3}|error)\.hbs$/;

/** Used only when no folder has a page (svc's own views could not be found). */
const LAST_RESORT = '<!doctype html><title>{{status}} {{title}}</title><h1>{{status}} {{title}}</h1><p>{{detail}}</p>';

export class ErrorPages {
  private readonly cache = new Map<number, Template>();

  private constructor(
    /** Most specific folder first; each maps `404`/`error` to its template. */
    private readonly folders: ReadonlyArray<ReadonlyMap<string, Template>>,
    private readonly lastResort: Template,
  ) {}

  static async load(root: string): Promise<ErrorPages> {
    const handlebars = Handlebars.create();
    const svcRoot = frameworkRoot(root);
    const candidates = [join(root, 'weave', 'Views', 'errors'), shoeboxPath(root, 'views')];
    // The demo is svc's own folder: its views are listed once.
    if (svcRoot && svcRoot !== resolve(root)) candidates.push(join(svcRoot, 'shoebox', 'views'));
    const folders = await Promise.all(candidates.map((folder) => loadFolder(handlebars, folder)));
    return new ErrorPages(folders, handlebars.compile(LAST_RESORT));
  }

  render(data: ErrorPageData): string {
    let template = this.cache.get(data.status);
    if (!template) {
      template = this.lookup(String(data.status));
      this.cache.set(data.status, template);
    }
    try {
      return template(data);
    } catch (e) {
      // A broken custom page (an unknown helper, say) must not turn an error page into a crash.
      process.stderr.write(`svc: error page for ${data.status} failed: ${(e as Error).message}\n`);
      return this.lastResort(data);
    }
  }

  private lookup(status: string): Template {
    // A page for this very status wins over any folder's catch-all `error.hbs`.
    for (const name of [status, 'error']) {
      for (const folder of this.folders) {
        const template = folder.get(name);
        if (template) return template;
      }
    }
    return this.lastResort;
  }
}

async function loadFolder(handlebars: typeof Handlebars, folder: string): Promise<Map<string, Template>> {
  const templates = new Map<string, Template>();
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return templates; // an app without custom pages
  }
  for (const name of names.sort()) {
    const page = PAGE_FILE.exec(name);
    if (!page) continue;
    let source: string;
    try {
      source = await readFile(join(folder, name), 'utf8');
    } catch (e) {
      // A folder by that name, a file this process may not read: said in one line, as a page that does not parse is.
      throw new ErrorPageError(`Error page ${join(folder, name)} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}). Make it a readable file, or remove it.`);
    }
    try {
      handlebars.parse(source); // compile() is lazy: surface syntax errors at start-up, not on a request
      templates.set(page[1]!, handlebars.compile(source));
    } catch (e) {
      throw new ErrorPageError(`Error page ${join(folder, name)} is not a valid Handlebars template: ${(e as Error).message.split('\n').at(-1)}. Fix it and run \`svc build\`, which points at the line.`);
    }
  }
  return templates;
}

/** A page that does not parse, said in one line by `svc serve` and `svc tread` (SVC010 at build time). */
export class ErrorPageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ErrorPageError';
  }
}
