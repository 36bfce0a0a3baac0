// `.svc/openapi.json` (and `shoebox/outsole/openapi.json`): OpenAPI 3.1 for the
// application's routes, from the route table alone. Paths come from the placeholders,
// schemas from the handlers' types (compiler/analyse/schema), text from JSDoc.
import type { RouteTable } from '../../ir.ts';
import { UniqueNames } from '../../unique-names.ts';
import { documentedPaths, isAppRoute, PathTemplates } from './documented-route.ts';
import { DEFAULT_INFO, type ApiInfo } from './info.ts';
import { baseOperationId } from './operation-id.ts';
import { operation } from './operation.ts';
import { sharedResponses } from './responses.ts';
import { stableJson } from './stable-json.ts';
import { compareText } from '../../text-order.ts';

export { readApiInfo, type ApiInfo } from './info.ts';

export function emitOpenApi(table: RouteTable, info: ApiInfo = DEFAULT_INFO): string {
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new UniqueNames();
  /** Tag name → what it holds: a route file's tag and a group prefix's may share a name (`web`). */
  const tags = new Map<string, Set<string>>();
  const tag = (name: string, description: string): void => void (tags.get(name) ?? tags.set(name, new Set()).get(name)!).add(description);
  const templates = new PathTemplates();
  const shared = new Set<string>();
  for (const route of table.routes.filter(isAppRoute)) {
    for (const documented of documentedPaths(route).map((d) => templates.canonical(d))) {
      const op = operation(documented, operationIds.claim(baseOperationId(documented)));
      (paths[documented.path] ??= {})[route.method.toLowerCase()] = op;
      for (const response of Object.values(op.responses) as Array<{ $ref?: string }>) if (response.$ref) shared.add(response.$ref.split('/').pop()!);
      const [fileTag, groupTag] = op.tags;
      tag(fileTag!, `Routes in ${route.file}`);
      if (groupTag) tag(groupTag, `Routes under /${groupTag}`);
    }
  }
  const components = {
    ...(Object.keys(table.schemas).length > 0 && { schemas: table.schemas }),
    ...(shared.size > 0 && { responses: Object.fromEntries([...shared].map((name) => [name, sharedResponses[name]])) }),
  };
  return stableJson({
    openapi: '3.1.0',
    info,
    paths,
    ...(Object.keys(components).length > 0 && { components }),
    tags: [...tags].map(([name, descriptions]) => ({ name, description: [...descriptions].sort().join('; ') })).sort((a, b) => compareText(a.name, b.name)),
  });
}
