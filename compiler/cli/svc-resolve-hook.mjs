// A module resolve hook (node:module register) for `svc cobble`, which imports the
// project's migrations as they are, not bundled: an application that runs this checkout's
// CLI without installing svc (README) finds `'svc'` there as its routes do in the build.
// Plain JavaScript, as Node loads hooks before any TypeScript loader.
let modules = {};

/** `data`: specifier → file URL of the framework's module. */
export function initialize(data) {
  modules = data;
}

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    const own = modules[specifier];
    if (own === undefined || error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return next(own, context);
  }
}
