/**
 * The URL a request target names, read as @hono/node-server's bridge reads it, so the server's
 * routing, the direct answer of a plain read and the bridge all see one pathname:
 *
 * - absolute-form (`http://a/caroulsel/data`, which a server must accept): its own URL;
 * - origin-form: a path, also one that starts with `//` (RFC 9112 reads `//a:99999/x` as that path;
 *   `new URL(target, base)` would take `a:99999` for a host, and throw on `//[/x`).
 *
 * `undefined` for anything else (`*`, `http://[/x`): not a URL, a `400 BAD_REQUEST_TARGET`.
 *
 * @example requestTarget('//a/caroulsel/data')?.pathname // '//a/caroulsel/data'
 */
export function requestTarget(target: string): URL | undefined {
  try {
    if (target.startsWith('/')) return new URL(`http://localhost${target}`);
    if (/^https?:\/\//i.test(target)) return new URL(target);
  } catch {
    // Not a URL: the caller answers it as a bad target.
  }
  return undefined;
}
