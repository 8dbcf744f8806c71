/** The screen's browser files, served by the association handler itself at `?asset=<name>`. */
export const SCREEN_ASSETS = ['association-screen.js', 'association-screen.css'] as const;

/**
 * The policy of the screen's page: its own module and stylesheet, requests to its own origin,
 * nothing inline, no framing by other sites.
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/**
 * The page a browser gets when it navigates to `associationtask?taskSheet=42`: no data, only the
 * screen's element, which loads its module and stylesheet from the same handler (`?asset=`) and
 * its data from the same URL. `endpoint` is the path the host mounted the handler at.
 */
export function screenPage(options: { endpoint: string; taskSheet: number; lang: string }): string {
  const endpoint = escapeHtml(options.endpoint);
  const asset = (name: string) => `${endpoint}?asset=${name}`;
  return `<!doctype html>
<html lang="${escapeHtml(options.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.lang.startsWith('pt') ? 'Folha de tarefa' : 'Task sheet'} ${options.taskSheet}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${asset('association-screen.css')}">
<script type="module" src="${asset('association-screen.js')}"></script>
</head>
<body class="ta-page">
<main>
<association-screen endpoint="${endpoint}" task-sheet="${options.taskSheet}"></association-screen>
</main>
</body>
</html>
`;
}

/** The page's language from Accept-Language: Brazilian Portuguese for any Portuguese, else English. */
export function pageLanguage(acceptLanguage: string | null): string {
  const first = (acceptLanguage ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('pt') ? 'pt-BR' : 'en';
}

/** True when the client asks for a page (a browser navigation), not data. */
export function wantsHtml(accept: string | null): boolean {
  if (accept === null) return false;
  const types = accept.split(',').map((part) => part.split(';')[0]?.trim().toLowerCase());
  const html = types.indexOf('text/html');
  const json = types.indexOf('application/json');
  return html !== -1 && (json === -1 || html < json);
}
