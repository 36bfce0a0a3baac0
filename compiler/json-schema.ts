// A JSON Schema (2020-12, as OpenAPI 3.1 uses it) as plain data.
export type JsonSchema = { [keyword: string]: unknown };
