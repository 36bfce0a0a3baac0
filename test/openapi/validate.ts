// An OpenAPI 3.1 document is checked twice: the document's structure by
// @seriousme/openapi-schema-validator, and every schema in it by compiling it with Ajv's
// JSON Schema 2020-12 dialect in strict mode (the validator accepts any object as a
// schema, so a misspelt keyword or a dangling $ref would slip through it).
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { raw } from '../support/server.ts';

type Content = Record<string, { schema?: unknown }>;

interface Document {
  paths: Record<string, Record<string, { parameters?: Array<{ schema: unknown }>; requestBody?: { content: Content }; responses: Record<string, { content?: Content }> }>>;
  components?: Record<string, unknown>;
}

export async function assertValidOpenApi(text: string): Promise<Document> {
  const document = JSON.parse(text) as Document;
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
  assert.equal(validator.version, '3.1');
  assert.deepEqual(result.errors ?? [], []);
  assert.equal(result.valid, true);

  const schemas: unknown[] = [];
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      for (const parameter of operation.parameters ?? []) schemas.push(parameter.schema);
      for (const media of Object.values(operation.requestBody?.content ?? {})) if (media.schema) schemas.push(media.schema);
      for (const response of Object.values(operation.responses)) {
        for (const media of Object.values(response.content ?? {})) if (media.schema) schemas.push(media.schema);
      }
    }
  }
  // Tuples with optional elements and `type: [...]` unions are valid JSON Schema that
  // Ajv's strict mode only frowns upon; everything else stays strict.
  const ajv = new Ajv2020({ strict: true, strictTuples: false, allowUnionTypes: true, validateFormats: false });
  ajv.addKeyword('components'); // lets `#/components/schemas/…` resolve inside the compiled root
  assert.doesNotThrow(() => ajv.compile({ components: document.components ?? {}, anyOf: [{}, ...schemas] }));
  return document;
}

/** Each path's GET answers 200 with a body that its documented 200 schema accepts. */
export async function assertAnswersMatchSchemas(document: Document, url: string, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const schema = document.paths[path]!.get!.responses['200']!.content!['application/json']!.schema as object;
    const res = await raw(url, path);
    assert.equal(res.status, 200);
    const ajv = new Ajv2020({ strict: true });
    ajv.addKeyword('components');
    const validate = ajv.compile({ components: document.components ?? {}, ...schema });
    assert.ok(validate(JSON.parse(res.body)), `${path}: ${res.body} against ${JSON.stringify(schema)}: ${JSON.stringify(validate.errors)}`);
  }
}
