/**
 * The modules the screen's entry (`association-screen.js`) imports, one concern each, served at
 * `?asset=association-screen/<file>` (see module-imports.ts for how their imports reach them). Named
 * one by one, as every served file is; a test keeps the list equal to the folder's files.
 */
export const SCREEN_MODULES = [
  'association-screen/api-batches.js',
  'association-screen/api.js',
  'association-screen/ask.js',
  'association-screen/confirm.js',
  'association-screen/conflicts.js',
  'association-screen/copy-previous.js',
  'association-screen/copy-value.js',
  'association-screen/dom.js',
  'association-screen/draft-labels.js',
  'association-screen/drafts-dropped.js',
  'association-screen/drafts-fields.js',
  'association-screen/drafts-store.js',
  'association-screen/drafts-typed.js',
  'association-screen/drafts.js',
  'association-screen/entry-key.js',
  'association-screen/fields.js',
  'association-screen/history.js',
  'association-screen/labels.js',
  'association-screen/labels-en.js',
  'association-screen/labels-pt-br.js',
  'association-screen/modal-draft.js',
  'association-screen/modal-presets.js',
  'association-screen/modal-send.js',
  'association-screen/modal-sight.js',
  'association-screen/modal-view.js',
  'association-screen/modal.js',
  'association-screen/offline-cache.js',
  'association-screen/offline-discard.js',
  'association-screen/offline-labels.js',
  'association-screen/offline-owner.js',
  'association-screen/offline-pending.js',
  'association-screen/offline-senders.js',
  'association-screen/offline-view.js',
  'association-screen/offline.js',
  'association-screen/outbox.js',
  'association-screen/progress.js',
  'association-screen/saved-answer.js',
  'association-screen/screen.js',
  'association-screen/search.js',
  'association-screen/sync.js',
  'association-screen/sync-batch.js',
  'association-screen/sync-driver.js',
  'association-screen/sync-refusal.js',
  'association-screen/table-focus-note.js',
  'association-screen/table-keys.js',
  'association-screen/table-cells.js',
  'association-screen/table-drafts.js',
  'association-screen/changed-by.js',
  'association-screen/table-meanwhile.js',
  'association-screen/table-model.js',
  'association-screen/table-outbox.js',
  'association-screen/table-paste.js',
  'association-screen/table-save.js',
  'association-screen/table.js',
  'association-screen/table-rows.js',
  'association-screen/table-window.js',
  'association-screen/text-values.js',
  'association-screen/tree-keys.js',
  'association-screen/tree-metrics.js',
  'association-screen/tree-walk.js',
  'association-screen/tree.js',
  'association-screen/values.js',
  'association-screen/view-switch.js',
  'association-screen/wording.js',
] as const;

/**
 * The screen's service worker (offline opening, #28): a module served at `?asset=` like the rest,
 * registered by the screen with the endpoint's path as its scope. Not among SCREEN_MODULES: the
 * page does not preload it.
 */
export const SERVICE_WORKER = 'association-screen-sw.js';

/** The screen's browser files, served by the association handler itself at `?asset=<name>`. */
export const SCREEN_ASSETS = [
  'association-screen.js',
  'association-screen.css',
  SERVICE_WORKER,
  ...SCREEN_MODULES,
] as const;

/**
 * The service worker's own policy (a worker runs under its script's response headers): its imports
 * (the screen's modules) and its requests (the page, the files, the outbox's saves) to this origin only.
 */
export const SERVICE_WORKER_CSP = "default-src 'none'; script-src 'self'; connect-src 'self'";

/**
 * The policy of the screen's page: its own module and stylesheet, requests to its own origin,
 * nothing inline, no framing by other sites.
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; worker-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/**
 * The name of the `<meta>` that marks a page as the screen's, the handler's own: the service worker
 * keeps a page for offline use only with it, so a host's sign-in form answered at the same URL with
 * a 200 (a session ended) never replaces the kept sheet. In the page itself, not in a header: a
 * proxy that passes only the headers it knows would have kept every page from being kept.
 */
export const PAGE_MARK = 'task-association-page';

/**
 * The page a browser gets when it navigates to `associationtask?taskSheet=42`: no data, only the
 * screen's element, which loads its module and stylesheet from the same handler (`?asset=`) and
 * its data from the same URL. `endpoint` is the path the host mounted the handler at. The entry's
 * modules are preloaded beside it, so they arrive together rather than one import after another.
 */
export function screenPage(options: { endpoint: string; taskSheet: number; lang: string }): string {
  const endpoint = escapeHtml(options.endpoint);
  const asset = (name: string) => `${endpoint}?asset=${name}`;
  return `<!doctype html>
<html lang="${escapeHtml(options.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="${PAGE_MARK}" content="screen">
<title>${options.lang.startsWith('pt') ? 'Folha de tarefa' : 'Task sheet'} ${options.taskSheet}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${asset('association-screen.css')}">
<script type="module" src="${asset('association-screen.js')}"></script>
${SCREEN_MODULES.map((name) => `<link rel="modulepreload" href="${asset(name)}">`).join('\n')}
</head>
<body class="ta-page">
<main>
<association-screen endpoint="${endpoint}" task-sheet="${options.taskSheet}" service-worker="${asset(SERVICE_WORKER)}"></association-screen>
</main>
</body>
</html>
`;
}

/**
 * The page a browser gets for a link the handler cannot read (`associationtask?taskSheet=abc`, or
 * no task sheet at all): a person followed it, so a page in their language, not the JSON error a
 * program gets. `detail` is the handler's own sentence, for whoever reports the link.
 */
export function invalidLinkPage(options: { endpoint: string; lang: string; detail: string }): string {
  const pt = options.lang.startsWith('pt');
  const title = pt ? 'Link inválido' : 'Invalid link';
  const text = pt
    ? 'Este link não abre uma folha de tarefa: ele deve terminar em ?taskSheet= seguido do número da folha. Volte e abra a folha de tarefa pelo seu link.'
    : 'This link does not open a task sheet: it must end in ?taskSheet= followed by the sheet number. Go back and open the task sheet through its link.';
  return `<!doctype html>
<html lang="${escapeHtml(options.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(options.endpoint)}?asset=association-screen.css">
</head>
<body class="ta-page">
<main class="ta-screen">
<h1 class="ta-screen__title">${title}</h1>
<p>${text}</p>
<p><small>${escapeHtml(options.detail)}</small></p>
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
