// One OpenAPI operation for one documented path of a route.
import type { JsonSchema } from '../../json-schema.ts';
import type { ParamKind } from '../../ir.ts';
import type { DocumentedPath } from './documented-route.ts';
import { fileTag } from './operation-id.ts';
import { queryParameters, requestBody } from './request.ts';
import { routeResponses, sharedRef } from './responses.ts';

export interface Operation {
  operationId: string;
  /** The route file's tag first, then the group prefix's. */
  tags: string[];
  summary?: string;
  description?: string;
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
}

export function operation(documented: DocumentedPath, operationId: string): Operation {
  const { route } = documented;
  const { handler } = route;
  const path = documented.placeholders.map(({ segment, index }) => {
    const description = handler.params[index]?.schema.description;
    return { name: segment.name, in: 'path', required: true, schema: placeholderSchema(segment.type), ...(description ? { description } : {}) };
  });
  const parameters = [...path, ...queryParameters(handler.calls.query)];
  const body = requestBody(handler.calls.body);
  const responses = routeResponses(route);
  // The router's own 400 keeps its text where the handler throws a 400 too: both are problem+json.
  if (documented.placeholders.some(({ segment }) => segment.type.kind !== 'string')) responses['400'] = sharedRef('BadParameter');
  return {
    operationId,
    tags: tagsOf(route.file, route.prefix),
    ...(handler.doc.summary && { summary: handler.doc.summary }),
    ...(handler.doc.description && { description: handler.doc.description }),
    ...(handler.doc.deprecated && { deprecated: true }),
    ...(parameters.length > 0 && { parameters }),
    ...(body !== undefined && { requestBody: body }),
    responses,
  };
}

/** `routes/admin.ts` in group `/admin/users` → `admin`, `admin/users`. */
function tagsOf(file: string, prefix: string): string[] {
  const tags = [fileTag(file)];
  const group = prefix.replace(/^\/+/, '');
  if (group && group !== tags[0]) tags.push(group);
  return tags;
}

/** Exactly what the dispatcher accepts for the placeholder. */
function placeholderSchema(type: ParamKind): JsonSchema {
  switch (type.kind) {
    case 'number':
      return type.values === undefined ? { type: 'number' } : { type: 'number', enum: type.values };
    case 'boolean':
      return type.values === undefined ? { type: 'boolean' } : { type: 'boolean', enum: type.values };
    case 'enum':
      return { type: 'string', enum: type.values };
    case 'string':
      return { type: 'string' };
  }
}
