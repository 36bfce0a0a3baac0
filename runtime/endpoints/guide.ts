// The user guide and its sibling documents (docs/*.md of the svc package) as the
// dashboard shows them: HTML, with GitHub's heading anchors so that the guide's own
// `#section` links work, and links between the documents kept on the dashboard.
// Markdown is rendered at a page's first view, not at start-up: most servers never show it.
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Token, Tokens } from 'marked';

export interface GuidePage {
  /** The document's first `# ` heading. */
  title: string;
  html: string;
}

export interface GuidePages {
  /** The document `docs/<name>.md`; undefined for a name that is not one. */
  page(name: string): Promise<GuidePage | undefined>;
}

/** The dashboard's query for a document: `?page=<name>`. */
export const pageQuery = (name: string): string => `?page=${encodeURIComponent(name)}`;

/** Reads every docs/*.md under `folder`; none when the folder is missing (an install without docs). */
export async function readGuidePages(folder: string): Promise<GuidePages> {
  const files = await readdir(folder).then(
    (entries) => entries.filter((entry) => entry.endsWith('.md')).sort(),
    () => [] as string[],
  );
  const sources = new Map(await Promise.all(files.map(async (file) => [basename(file, '.md'), await readFile(join(folder, file), 'utf8')] as const)));
  const rendered = new Map<string, Promise<GuidePage>>();
  return {
    page(name) {
      const source = sources.get(name);
      if (source === undefined) return Promise.resolve(undefined);
      let page = rendered.get(name);
      if (page === undefined) {
        page = render(source, new Set(sources.keys())).then(({ title, html }) => ({ title: title ?? name, html }));
        rendered.set(name, page);
      }
      return page;
    },
  };
}

/** The page's HTML, and the text of its first `# ` heading (a tab's title shows no Markdown). */
async function render(markdown: string, documents: ReadonlySet<string>): Promise<{ title: string | undefined; html: string }> {
  const { Marked } = await import('marked');
  const slugs = new Map<string, number>();
  let title: string | undefined;
  const marked = new Marked({
    walkTokens(token: Token) {
      if (token.type === 'link') token.href = documentLink(token.href, documents);
      if (token.type === 'heading' && token.depth === 1) title ??= plainText(token.tokens ?? []);
    },
    renderer: {
      heading({ tokens, depth, text }: Tokens.Heading) {
        return `<h${depth} id="${uniqueSlug(text, slugs)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
    },
  });
  const html = marked.parse(markdown, { async: false });
  return { title, html };
}

/** Inline tokens as the words they show: `` `cobble` `` is `cobble`, a link its text. */
const plainText = (tokens: readonly Token[]): string =>
  tokens.map((token) => ('tokens' in token && token.tokens ? plainText(token.tokens) : 'text' in token ? String(token.text) : '')).join('');

/** `knots.md#cache` → `?page=knots#cache` for a document the dashboard shows; other links as written. */
function documentLink(href: string, documents: ReadonlySet<string>): string {
  const found = /^([\w-]+)\.md(#.*)?$/.exec(href);
  return found && documents.has(found[1]!) ? `${pageQuery(found[1]!)}${found[2] ?? ''}` : href;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to `-`, repeats numbered. */
function uniqueSlug(text: string, seen: Map<string, number>): string {
  const slug = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
  const count = seen.get(slug) ?? 0;
  seen.set(slug, count + 1);
  return count === 0 ? slug : `${slug}-${count}`;
}
