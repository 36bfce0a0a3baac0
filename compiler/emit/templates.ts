// Handlebars templates from templates/, compiled once per process. Generated code
// embeds strings only through `quote` (a single-quoted TypeScript literal) or `literal`
// (JSON.stringify), never raw.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { frameworkRoot } from '../framework.ts';
import { quote } from './source-text.ts';

const engine = Handlebars.create();
engine.registerHelper('literal', (value: unknown) => JSON.stringify(value));
engine.registerHelper('quote', (value: string) => quote(value));

const cache = new Map<string, Handlebars.TemplateDelegate>();

export function renderTemplate(name: string, data: object): string {
  let template = cache.get(name);
  if (!template) {
    const source = readFileSync(join(frameworkRoot, 'templates', name), 'utf8');
    template = engine.compile(source, { noEscape: true, strict: true }); // code, not HTML
    cache.set(name, template);
  }
  return template(data);
}
