// One OpenAPI operation for one documented path of a route.
import type { JsonSchema } from '../../analyse/schema/json-schema.ts';
import type { ParamKind } from '../../ir.ts';
import type { DocumentedPath } from './documented-route.ts';
import { fileTag } from './operation-id.ts';

export const BAD_PARAMETER = '#/components/responses/BadParameter';

/** What the runtime sends when a typed placeholder does not fit (runtime/errors, RFC 9457). */
export const badParameterResponse = {
  description: 'A path parameter does not fit its type.',
  content: {
    'application/problem+json': {
      schema: {
        type: 'object',
        properties: {
          type: { type: 'string' },
          title: { type: 'string' },
          status: { type: 'integer' },
          detail: { type: 'string' },
        },
        required: ['title', 'status'],
      },
    },
  },
};

export interface Operation {
  operationId: string;
  /** The route file's tag first, then the group prefix's. */
  tags: string[];
  summary?: string;
  description?: string;
  parameters?: unknown[];
  responses: Record<string, unknown>;
}

export function operation(documented: DocumentedPath, operationId: string, schemas: Record<string, JsonSchema>): Operation {
  const { route } = documented;
  const { handler } = route;
  const parameters = documented.placeholders.map(({ segment, index }) => {
    const description = handler.params[index]?.schema.description;
    return { name: segment.name, in: 'path', required: true, schema: placeholderSchema(segment.type), ...(description ? { description } : {}) };
  });
  const responses: Record<string, unknown> = handler.returns
    ? { '200': { description: 'OK', content: content(handler.returns, schemas) } }
    : { '204': { description: 'No content.' } };
  if (documented.placeholders.some(({ segment }) => segment.type.kind !== 'string')) responses['400'] = { $ref: BAD_PARAMETER };
  return {
    operationId,
    tags: tagsOf(route.file, route.prefix),
    ...(handler.doc.summary && { summary: handler.doc.summary }),
    ...(handler.doc.description && { description: handler.doc.description }),
    ...(parameters.length > 0 && { parameters }),
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
      return { type: 'boolean' };
    case 'enum':
      return { type: 'string', enum: type.values };
    case 'string':
      return { type: 'string' };
  }
}

/**
 * The media type follows what the runtime does with the value: strings are sent as HTML,
 * bytes and `Response`s as they are (`contentMediaType`), everything else as JSON.
 */
function content(schema: JsonSchema, schemas: Record<string, JsonSchema>): Record<string, unknown> {
  if (typeof schema.contentMediaType === 'string') return { [schema.contentMediaType]: {} };
  const target = typeof schema.$ref === 'string' ? schemas[schema.$ref.split('/').pop()!] : schema;
  const mediaType = target?.type === 'string' ? 'text/html' : 'application/json';
  return { [mediaType]: { schema } };
}
