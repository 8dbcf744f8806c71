// @ts-check
/**
 * The texts of the screen's offline parts (#28): the offline notice, the outbox and its entries,
 * keeping a sheet for offline use. Part of `ScreenLabels` (labels.js spreads them in), replaceable
 * the same way.
 */

/**
 * @typedef {object} OfflineLabels
 * @property {string} offlineRegion accessible name of the offline and outbox section
 * @property {string} offlineNow the page is offline, its data from the browser's cache read `{at}`
 * @property {string} offlineNoTime the page is offline (data read at a time not known)
 * @property {string} offlineBack the network came back
 * @property {string} offlineStale online, some of the data shown from the browser's cache (read
 *   offline, or when the server could not be reached), read `{at}`: a reload reads it anew
 * @property {string} offlineStaleNoTime the same, read at a time not known
 * @property {string} queued a save kept on this device to be sent later, `{label}`
 * @property {string} queuedNext the same from "Save and next", `{label}` `{next}`
 * @property {string} pendingCountOne one entry waits to be sent
 * @property {string} pendingCount entries wait to be sent, `{count}`
 * @property {string} stoppedCountOne one entry was not sent (a conflict, a refusal) and waits for the
 *   person's decision, in the list of waiting entries: said on the count's line, apart from those
 *   waiting to be sent
 * @property {string} stoppedCount the same, `{count}` entries
 * @property {string} notSentOne announced when a sending settled with one entry stopped (a conflict,
 *   a refusal): it was not sent and needs the person's decision
 * @property {string} notSent the same, `{count}` entries
 * @property {string} stoppedChip short mark in the tree: the activity has an entry stopped for a decision
 * @property {string} stoppedNotice in the modal of an activity with an entry stopped for a decision
 * @property {string} pendingNone nothing waits to be sent
 * @property {string} pendingList button showing the waiting entries
 * @property {string} pendingHide button hiding them
 * @property {string} pendingChip short mark in the tree: a value entered but not sent
 * @property {string} entryEntered when an entry was made, `{at}`
 * @property {string} entryRemove an entry that removes the saved values
 * @property {string} entryWaiting an entry's state: waiting to be sent
 * @property {string} lastTry what the last try of a waiting entry got: an answer that left it waiting
 *   (a host's or a proxy's page, a failure), `{status}` `{reason}` (the answer's reason phrase)
 * @property {string} lastTryStatus the same for an answer without a reason phrase (HTTP/2), `{status}`
 * @property {string} lastTryNoAnswer the last try of a waiting entry got no answer
 * @property {string} lastTryNotHandler the last try got a success that was not the server's answer to
 *   a save (a sign-in or captive portal's page)
 * @property {string} entryUnconfirmed an entry's state: typed while the page could not tell who was
 *   signed in (opened offline, or someone else signed in since), waiting for the person signed in
 *   to confirm it is theirs
 * @property {string} unconfirmedCount such entries wait for a confirmation, `{count}`
 * @property {string} ownerChanged someone else signed in on this browser since the page was opened:
 *   it now files and sends as them
 * @property {string} claim the button sending them as the signed-in person's
 * @property {string} claimed announced once they are, `{count}`
 * @property {string} claimedOne the same, for one entry
 * @property {string} entryConflict an entry's state: what it changes changed meanwhile (anyone, the person elsewhere too), decide
 * @property {string} entryRefused an entry's state: the server refused it, `{message}`
 * @property {string} discard button: drop a waiting entry
 * @property {string} discardFor its accessible name, `{label}`
 * @property {string} discardConfirm the question before dropping, `{label}`
 * @property {string} discardYes confirms the drop
 * @property {string} discardNo keeps the entry
 * @property {string} discarded announced after a drop, `{label}`
 * @property {string} sentBeforeDiscard announced when the entry to drop had been sent meanwhile, `{label}`
 * @property {string} discardedOnItsWay announced after a drop of an entry another sender (this page,
 *   another tab, the service worker) had on its way to the server: the server may still store it,
 *   and what came of it is said once known, `{label}`
 * @property {string} discardedMaybeSent announced after a drop of an entry whose last sending got no
 *   answer (the server may have stored it), `{label}`
 * @property {string} decide button: open a conflicting entry to decide
 * @property {string} decideFor its accessible name, `{label}`
 * @property {string} sentOne announced when the one waiting entry was sent
 * @property {string} sentAll announced when the waiting entries were sent, `{count}`
 * @property {string} sendFailed the waiting entries could not be sent yet (tried again)
 * @property {string} outboxFull the outbox is full: no more entries until these are sent, `{max}`
 * @property {string} outboxNoRoom a save of `{count}` entries is more than the outbox has room for (`{free}`)
 * @property {string} outboxNearlyFull the outbox is nearly full, `{count}` `{max}`
 * @property {string} outboxQuota the browser refused the space for an entry
 * @property {string} outboxUnavailable the browser cannot keep entries (private mode, storage off)
 * @property {string} outboxNewer a newer release of the screen, opened on this device since, keeps
 *   entries its own way: this page of the old one must be reloaded to keep any
 * @property {string} outboxEvicted the browser cleared this site's storage: entries were lost
 * @property {string} notPersisted the browser may clear entries when space runs low
 * @property {string} otherOwner entries of another user wait on this device, `{count}`
 * @property {string} otherOwnerOne the same, for one entry
 * @property {string} keepSheet button: fetch the whole sheet for offline use
 * @property {string} keeping while the sheet is fetched, `{count}` branches
 * @property {string} kept the whole sheet is kept, `{count}` branches
 * @property {string} keepTooLarge the sheet is over the bound, `{max}` megabytes
 * @property {string} keepFailed the sheet could not be fetched whole, `{message}`
 * @property {string} keepNoSpace the sheet was read but the browser did not keep it (space refused)
 */

/** @type {OfflineLabels} */
export const OFFLINE_LABELS_EN = {
  offlineRegion: 'Offline and waiting entries',
  offlineNow: 'You are offline. This sheet’s data was read on {at}.',
  offlineNoTime: 'You are offline. This sheet’s data is from an earlier visit.',
  offlineBack: 'Back online.',
  offlineStale:
    'Some of this sheet’s data was read on {at} and kept on this device: reload the page for the latest.',
  offlineStaleNoTime:
    'Some of this sheet’s data is from an earlier visit, kept on this device: reload the page for the latest.',
  queued: '{label} saved on this device: it will be sent when the network returns.',
  queuedNext: '{label} saved on this device, to be sent later. Now showing {next}.',
  pendingCountOne: '1 entry waits to be sent.',
  pendingCount: '{count} entries wait to be sent.',
  stoppedCountOne: '1 entry was not sent: it needs your decision, in the list of waiting entries.',
  stoppedCount: '{count} entries were not sent: they need your decision, in the list of waiting entries.',
  notSentOne: '1 entry was not sent: it needs your decision.',
  notSent: '{count} entries were not sent: they need your decision.',
  stoppedChip: 'not sent: decide',
  stoppedNotice:
    'Your entry for this activity was not sent: it needs your decision, in the list of waiting entries.',
  pendingNone: 'Nothing waits to be sent.',
  pendingList: 'Show waiting entries',
  pendingHide: 'Hide waiting entries',
  pendingChip: 'not sent',
  entryEntered: 'entered on {at}',
  entryRemove: 'remove the saved entry',
  entryWaiting: 'Waiting to be sent.',
  lastTry: 'Last try: the server answered {status} ({reason}).',
  lastTryStatus: 'Last try: the server answered {status}.',
  lastTryNoAnswer: 'Last try: no answer from the server.',
  lastTryNotHandler: 'Last try: the answer was not the server’s (a sign-in or network page, say).',
  entryUnconfirmed: 'Waits for you to confirm it is yours.',
  unconfirmedCount:
    'Entries typed on this device while it could not tell who was signed in: {count}. They are sent once you confirm they are yours.',
  ownerChanged:
    'Someone else has signed in on this browser since this sheet was opened: what you save here is now saved as them. Entries made before stay with whoever made them.',
  claim: 'Send them as mine',
  claimed: '{count} entries will be sent as yours.',
  claimedOne: '1 entry will be sent as yours.',
  entryConflict: 'Changed meanwhile: decide before it is sent.',
  entryRefused: 'Refused by the server: {message}',
  discard: 'Discard',
  discardFor: 'Discard the entry of {label}',
  discardConfirm: 'Discard what you entered for {label}? It will never be sent.',
  discardYes: 'Discard it',
  discardNo: 'Keep it',
  discarded: 'The entry of {label} was discarded.',
  sentBeforeDiscard: 'The entry of {label} was sent before it could be discarded: it is saved.',
  discardedOnItsWay:
    'The entry of {label} was already on its way to the server: it will not be sent again, but the server may still save it. This page will say whether it did.',
  discardedMaybeSent:
    'The entry of {label} was discarded here, but it had been sent once without an answer: the server may have saved it. Open the activity to see.',
  decide: 'Decide',
  decideFor: 'Decide the conflict of {label}',
  sentOne: '1 waiting entry was sent.',
  sentAll: '{count} waiting entries were sent.',
  sendFailed: 'The waiting entries could not be sent yet: trying again shortly.',
  outboxFull:
    'This device holds {max} entries waiting to be sent, its maximum: connect to send them before entering more.',
  outboxNoRoom:
    'This save has {count} entries and this device has room for {free} more waiting to be sent: connect to save it, or save fewer at a time.',
  outboxNearlyFull: '{count} of at most {max} entries wait on this device: connect soon to send them.',
  outboxQuota: 'The browser refused to store the entry (no space left): it was not kept.',
  outboxUnavailable: 'This browser cannot keep entries offline (private mode or storage turned off).',
  outboxNewer: 'A newer version of this screen is installed on this device: reload the page to keep entries.',
  outboxEvicted:
    'The browser cleared this site’s storage: entries that were waiting to be sent were lost. Enter them again.',
  notPersisted: 'This browser may clear waiting entries if space runs low: connect soon to send them.',
  otherOwner:
    '{count} entries of another user wait on this device; they are sent when that user opens the sheet.',
  otherOwnerOne: '1 entry of another user waits on this device; it is sent when that user opens the sheet.',
  keepSheet: 'Keep this sheet for offline use',
  keeping: 'Keeping the sheet for offline use… {count} branches read.',
  kept: 'This sheet is kept for offline use ({count} branches).',
  keepTooLarge:
    'This sheet is too large to keep whole (over {max} MB): the branches you open stay available offline.',
  keepFailed: 'The sheet could not be kept whole: {message}',
  keepNoSpace:
    'The sheet could not be kept: the browser refused the space (or keeps no data for this page). Branches not opened will not open offline.',
};

/** @type {OfflineLabels} */
export const OFFLINE_LABELS_PT_BR = {
  offlineRegion: 'Sem conexão e registros a enviar',
  offlineNow: 'Você está sem conexão. Os dados desta folha foram lidos em {at}.',
  offlineNoTime: 'Você está sem conexão. Os dados desta folha são de uma visita anterior.',
  offlineBack: 'Conexão restabelecida.',
  offlineStale:
    'Parte dos dados desta folha foi lida em {at} e guardada neste aparelho: recarregue a página para ver os mais recentes.',
  offlineStaleNoTime:
    'Parte dos dados desta folha é de uma visita anterior, guardada neste aparelho: recarregue a página para ver os mais recentes.',
  queued: '{label} salva neste aparelho: será enviada quando a rede voltar.',
  queuedNext: '{label} salva neste aparelho, para enviar depois. Agora mostrando {next}.',
  pendingCountOne: '1 registro aguarda envio.',
  pendingCount: '{count} registros aguardam envio.',
  stoppedCountOne: '1 registro não foi enviado: precisa da sua decisão, na lista de registros a enviar.',
  stoppedCount:
    '{count} registros não foram enviados: precisam da sua decisão, na lista de registros a enviar.',
  notSentOne: '1 registro não foi enviado: precisa da sua decisão.',
  notSent: '{count} registros não foram enviados: precisam da sua decisão.',
  stoppedChip: 'não enviado: decidir',
  stoppedNotice:
    'Seu registro desta atividade não foi enviado: precisa da sua decisão, na lista de registros a enviar.',
  pendingNone: 'Nada aguarda envio.',
  pendingList: 'Mostrar registros a enviar',
  pendingHide: 'Ocultar registros a enviar',
  pendingChip: 'não enviado',
  entryEntered: 'registrado em {at}',
  entryRemove: 'remover o registro salvo',
  entryWaiting: 'Aguardando envio.',
  lastTry: 'Última tentativa: o servidor respondeu {status} ({reason}).',
  lastTryStatus: 'Última tentativa: o servidor respondeu {status}.',
  lastTryNoAnswer: 'Última tentativa: sem resposta do servidor.',
  lastTryNotHandler:
    'Última tentativa: a resposta não veio do servidor (uma página de login ou da rede, por exemplo).',
  entryUnconfirmed: 'Aguarda você confirmar que é seu.',
  unconfirmedCount:
    'Registros digitados neste aparelho quando não era possível saber quem estava conectado: {count}. São enviados quando você confirmar que são seus.',
  ownerChanged:
    'Outra pessoa entrou neste navegador desde que esta folha foi aberta: o que você salvar aqui agora é salvo como ela. Registros feitos antes continuam com quem os fez.',
  claim: 'Enviar como meus',
  claimed: '{count} registros serão enviados como seus.',
  claimedOne: '1 registro será enviado como seu.',
  entryConflict: 'Alterado enquanto isso: decida antes do envio.',
  entryRefused: 'Recusado pelo servidor: {message}',
  discard: 'Descartar',
  discardFor: 'Descartar o registro de {label}',
  discardConfirm: 'Descartar o que você registrou em {label}? Isso nunca será enviado.',
  discardYes: 'Descartar',
  discardNo: 'Manter',
  discarded: 'O registro de {label} foi descartado.',
  sentBeforeDiscard: 'O registro de {label} foi enviado antes de ser descartado: está salvo.',
  discardedOnItsWay:
    'O registro de {label} já estava a caminho do servidor: não será enviado de novo, mas o servidor ainda pode salvá-lo. Esta página dirá se salvou.',
  discardedMaybeSent:
    'O registro de {label} foi descartado aqui, mas já tinha sido enviado uma vez sem resposta: o servidor pode tê-lo salvo. Abra a atividade para ver.',
  decide: 'Decidir',
  decideFor: 'Decidir o conflito de {label}',
  sentOne: '1 registro pendente foi enviado.',
  sentAll: '{count} registros pendentes foram enviados.',
  sendFailed: 'Os registros pendentes ainda não puderam ser enviados: nova tentativa em instantes.',
  outboxFull:
    'Este aparelho guarda {max} registros a enviar, o máximo: conecte-se para enviá-los antes de registrar mais.',
  outboxNoRoom:
    'Este salvamento tem {count} registros e este aparelho tem espaço para mais {free} a enviar: conecte-se para salvá-lo, ou salve menos de cada vez.',
  outboxNearlyFull:
    '{count} de no máximo {max} registros aguardam neste aparelho: conecte-se logo para enviá-los.',
  outboxQuota: 'O navegador recusou guardar o registro (sem espaço): ele não foi mantido.',
  outboxUnavailable:
    'Este navegador não consegue guardar registros sem conexão (modo privado ou armazenamento desligado).',
  outboxNewer:
    'Uma versão mais nova desta tela está instalada neste aparelho: recarregue a página para guardar registros.',
  outboxEvicted:
    'O navegador apagou o armazenamento deste site: registros que aguardavam envio foram perdidos. Registre-os de novo.',
  notPersisted:
    'Este navegador pode apagar os registros a enviar se faltar espaço: conecte-se logo para enviá-los.',
  otherOwner:
    '{count} registros de outro usuário aguardam neste aparelho; serão enviados quando ele abrir a folha.',
  otherOwnerOne: '1 registro de outro usuário aguarda neste aparelho; será enviado quando ele abrir a folha.',
  keepSheet: 'Guardar esta folha para uso sem conexão',
  keeping: 'Guardando a folha para uso sem conexão… {count} ramos lidos.',
  kept: 'Esta folha está guardada para uso sem conexão ({count} ramos).',
  keepTooLarge:
    'Esta folha é grande demais para guardar inteira (mais de {max} MB): os ramos que você abrir ficam disponíveis sem conexão.',
  keepFailed: 'Não foi possível guardar a folha inteira: {message}',
  keepNoSpace:
    'Não foi possível guardar a folha: o navegador recusou o espaço (ou não guarda dados desta página). Ramos não abertos não abrirão sem conexão.',
};
