// svc.json's shape → the JSON Schema (draft 2020-12) shipped as svc.schema.json.
// Regenerate after changing shape.ts: `node --import tsx compiler/config/write-schema.ts`
// (test/config/schema.test.ts fails while the shipped file is stale).
import { svcJsonShape, type Shape } from './shape.ts';

type JsonObject = Record<string, unknown>;

function renderSchema(): JsonObject {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'svc.json',
    ...render(svcJsonShape),
  };
}

function render(shape: Shape): JsonObject {
  switch (shape.type) {
    case 'object':
      return {
        type: 'object',
        description: shape.description,
        properties: Object.fromEntries(Object.entries(shape.properties).map(([key, property]) => [key, render(property)])),
        ...(shape.required ? { required: shape.required } : {}),
        additionalProperties: false,
      };
    case 'map':
      return {
        type: 'object',
        description: shape.description,
        propertyNames: { pattern: shape.keyPattern },
        additionalProperties: render(shape.values),
        ...defaultKeyword(shape.default),
      };
    case 'array':
      return { type: 'array', description: shape.description, items: render(shape.items), ...defaultKeyword(shape.default) };
    case 'string':
      return {
        type: 'string',
        description: shape.check ? `${shape.description} Checked exactly by \`svc build\`.` : shape.description,
        ...(shape.enum ? { enum: shape.enum } : {}),
        ...(shape.minLength !== undefined ? { minLength: shape.minLength } : {}),
        ...(shape.pattern ? { pattern: shape.pattern } : {}),
        ...defaultKeyword(shape.default),
      };
    case 'integer':
      return {
        type: 'integer',
        description: shape.description,
        minimum: shape.minimum,
        ...(shape.maximum !== undefined ? { maximum: shape.maximum } : {}),
        ...defaultKeyword(shape.default),
      };
    case 'boolean':
      return { type: 'boolean', description: shape.description, default: shape.default };
  }
}

const defaultKeyword = (value: unknown): JsonObject => (value === undefined ? {} : { default: value });

export const schemaText = (): string => `${JSON.stringify(renderSchema(), null, 2)}\n`;
