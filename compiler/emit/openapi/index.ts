// `.svc/openapi.json` (and `shoebox/outsole/openapi.json`): OpenAPI 3.1 for the
// application's routes, from the route table alone. Paths come from the placeholders,
// schemas from the handlers' types (compiler/analyse/schema), text from JSDoc.
import type { RouteTable } from '../../ir.ts';
import { UniqueNames } from '../../analyse/schema/unique-names.ts';
import { documentedPaths, isAppRoute, PathTemplates } from './documented-route.ts';
import { DEFAULT_INFO, type ApiInfo } from './info.ts';
import { baseOperationId } from './operation-id.ts';
import { badParameterResponse, operation } from './operation.ts';
import { stableJson } from './stable-json.ts';

export { readApiInfo, type ApiInfo } from './info.ts';

export function emitOpenApi(table: RouteTable, info: ApiInfo = DEFAULT_INFO): string {
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new UniqueNames();
  const tags = new Map<string, string>();
  const templates = new PathTemplates();
  let badParameter = false;
  for (const route of table.routes.filter(isAppRoute)) {
    for (const documented of documentedPaths(route).map((d) => templates.canonical(d))) {
      const op = operation(documented, operationIds.claim(baseOperationId(documented)), table.schemas);
      (paths[documented.path] ??= {})[route.method.toLowerCase()] = op;
      badParameter ||= '400' in op.responses;
      const [fileTag, groupTag] = op.tags;
      if (!tags.has(fileTag!)) tags.set(fileTag!, `Routes in ${route.file}`);
      if (groupTag && !tags.has(groupTag)) tags.set(groupTag, `Routes under /${groupTag}`);
    }
  }
  const components = {
    ...(Object.keys(table.schemas).length > 0 && { schemas: table.schemas }),
    ...(badParameter && { responses: { BadParameter: badParameterResponse } }),
  };
  return stableJson({
    openapi: '3.1.0',
    info,
    paths,
    ...(Object.keys(components).length > 0 && { components }),
    tags: [...tags].map(([name, description]) => ({ name, description })).sort((a, b) => (a.name < b.name ? -1 : 1)),
  });
}
