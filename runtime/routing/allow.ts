// The `Allow` header's methods for a set of registered ones (SPEC §4): HEAD wherever GET
// is, and always OPTIONS, which the runtime answers 204 when no route takes it. The
// dispatcher's lists are written into the generated module; the runtime builds one, for
// `OPTIONS *`, from every method the application registers.
export function allowList(methods: Iterable<string>): string[] {
  const allow = new Set<string>(['OPTIONS']);
  for (const method of methods) {
    allow.add(method);
    if (method === 'GET') allow.add('HEAD');
  }
  return [...allow].sort();
}
