/**
 * The association screen's modules are served by its handler at one URL, told apart by the query:
 * `/erp/associationtask?asset=association-screen.js`, `...?asset=association-screen/tree.js`. In
 * the files (`web/`) they import each other as plain modules (`import { x } from './tree.js'`), which
 * a browser would resolve against the URL's path (`/erp/tree.js`): a path the host does not route.
 *
 * So a module is served with its relative imports written as the handler's own URL: each `./x.js`
 * becomes `./<last segment of the request's path>?asset=<the file's name under web/>`
 * (`./associationtask?asset=association-screen/tree.js`). It stays relative, so it works behind a
 * proxy that adds a prefix, from the handler's page and from a host's own page that imports the
 * entry from the handler's URL (no import map needed); an endpoint ending in `/` gives `./?asset=`.
 * The files in `web/` stay plain modules that run as they are from a static folder too.
 */

/** What is written in a static `import`/`export ... from` a relative file: `from './x.js'`, `import '../y.js'`. */
const RELATIVE_IMPORT = /(\bfrom\s*|\bimport\s*)(['"])(\.{1,2}\/[^'"\n]+)\2/g;

/**
 * The last segment of a request's path, as a module's import may name it: characters a URL path
 * keeps but a quoted specifier could not (a quote, a backslash) are percent-encoded.
 */
export function lastPathSegment(pathname: string): string {
  const segment = pathname.slice(pathname.lastIndexOf('/') + 1);
  return segment.replace(
    /[^\w.~!$&()*+,;=:@%-]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/**
 * `source`, the module `name` (a path under `web/`), with each relative import written as the
 * handler's URL of the file it names: `./<segment>?asset=<file>`. A file named that is not among
 * `served` is an error of the package (a module the handler would answer 404), said by its names.
 *
 * @example rewriteImports("import { a } from './b.js';", 'x/c.js', new Set(['x/b.js']), 'associationtask')
 * // "import { a } from './associationtask?asset=x/b.js';"
 */
export function rewriteImports(
  source: string,
  name: string,
  served: ReadonlySet<string>,
  segment: string,
): string {
  return source.replace(RELATIVE_IMPORT, (_whole, keyword: string, quote: string, specifier: string) => {
    const file = new URL(specifier, `file:///web/${name}`).pathname.replace(/^\/web\//, '');
    if (!served.has(file)) {
      throw new Error(`${name} imports ${specifier} (${file}), which is not a served file of the screen`);
    }
    return `${keyword}${quote}./${segment}?asset=${file}${quote}`;
  });
}
