// JSON with object keys sorted at every level, so the same table always yields the same
// bytes whatever order the compiler met things in. Arrays keep their order: it means
// something there (`required`, `enum`, `prefixItems`, `parameters`).
export function stableJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, v]) => [key, sortKeys(v)]));
}
