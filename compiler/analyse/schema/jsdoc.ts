// Handler documentation from JSDoc: the first paragraph is the summary, the rest the
// description, `@param name text` describes a placeholder, `@deprecated` marks it so. Methods and function
// declarations carry their own JSDoc; a closure is documented on its registration
// statement (`/** … */ router.get('/', () => …)`).
import { Node, type JSDoc } from 'ts-morph';
import type { HandlerDoc } from '../../ir.ts';
import type { HandlerDeclaration } from './index.ts';

export interface HandlerJsDoc {
  doc: HandlerDoc;
  /** `@param` text by parameter name. */
  params: Map<string, string>;
}

export function readJsDoc(decl: HandlerDeclaration): HandlerJsDoc {
  const docs = docsOf(decl);
  const params = new Map<string, string>();
  let deprecated = false;
  for (const tag of docs.flatMap((d) => d.getTags())) {
    const text = tag.getCommentText()?.trim().replace(/^-\s*/, '');
    if (Node.isJSDocParameterTag(tag) && text) params.set(tag.getName(), text);
    if (Node.isJSDocDeprecatedTag(tag)) deprecated = true;
  }
  const doc = splitDescription(docs.map((d) => d.getDescription().trim()).join('\n\n').trim());
  return { doc: deprecated ? { ...doc, deprecated } : doc, params };
}

function docsOf(decl: HandlerDeclaration): JSDoc[] {
  if (Node.isJSDocable(decl) && decl.getJsDocs().length > 0) return decl.getJsDocs();
  if (Node.isMethodDeclaration(decl) || Node.isFunctionDeclaration(decl)) return [];
  const statement = decl.getFirstAncestor((n) => Node.isStatement(n));
  return statement && Node.isJSDocable(statement) ? statement.getJsDocs() : [];
}

function splitDescription(text: string): HandlerDoc {
  if (!text) return {};
  const [first = '', ...rest] = text.split(/\n\s*\n/);
  const summary = first.replace(/\s*\n\s*/g, ' ').trim();
  const description = rest.join('\n\n').trim();
  return description ? { summary, description } : { summary };
}
