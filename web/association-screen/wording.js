// @ts-check
/**
 * Sentences the screen builds from its texts and the page's language: a user, a time, a list of
 * fields, where a preset came from, a value as the conflict view and the history show it.
 */

import { fill } from './labels.js';
import { formatValue } from './values.js';

/**
 * @param {import('./labels.js').ScreenLabels} labels
 * @param {string} lang
 */
export function createWording(labels, lang) {
  /** @type {Intl.DateTimeFormat | undefined} */
  let dateFormat;
  /** A user by their id ("user 7"). @param {number} id */
  const byId = (id) => fill(labels.user, { id });
  /** The user signed in on this page, as the server said it (not a cached answer's). @type {number | undefined} */
  let me;
  return {
    /**
     * Who the page's own user is (`part=start`'s `user`), or undefined while not known: a start
     * from the browser's cache, or someone else signed in since. @param {number | undefined} id
     */
    setMe: (id) => {
      me = id;
    },
    /** A user as the page names them: "you" for its own. @param {number} id a user's SEQ_DB */
    user: (id) => (id === me ? labels.userYou : byId(id)),
    /**
     * Who changed a value meanwhile, as a conflict names them: the page's own user did it
     * elsewhere (another tab or device). @param {number} id a user's SEQ_DB
     */
    changer: (id) => (id === me ? labels.userYouElsewhere : byId(id)),

    /** A server time in the page's language and the browser's time zone. @param {string} iso */
    when(iso) {
      const date = new Date(iso);
      if (Number.isNaN(date.getTime())) return iso;
      try {
        dateFormat ??= new Intl.DateTimeFormat(lang || undefined, {
          dateStyle: 'medium',
          timeStyle: 'short',
        });
      } catch {
        // A lang the browser cannot format in: its own language.
        dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
      }
      return dateFormat.format(date);
    },

    /** "A, B and C" in the page's language. @param {string[]} items */
    list(items) {
      try {
        return new Intl.ListFormat(lang || undefined, { type: 'conjunction' }).format(items);
      } catch {
        return items.join(', ');
      }
    },

    /**
     * Where a preset came from.
     * @param {string | undefined} source @param {string | number | null | undefined} [value]
     */
    source(source, value) {
      switch (source) {
        case 'saved':
          // The server says `saved` for every field of a row: an empty one was saved empty, on purpose.
          return value === null || value === undefined ? labels.sourceSavedEmpty : labels.sourceSaved;
        case 'default:value':
          return labels.sourceValue;
        case 'default:field':
          return labels.sourceField;
        case 'default:taskSheet':
          return labels.sourceTaskSheet;
        case 'unread':
          // Its entry was removed, and what applies now (its defaults) is not read yet.
          return labels.sourceUnread;
        case 'pending':
          // Kept in the outbox: what the next save starts from, not yet the server's.
          return labels.sourcePending;
        default:
          return labels.sourceNone;
      }
    },

    /**
     * A value as the conflict view shows it: empty said as a word.
     * @param {string | number | null} value
     * @param {import('./api.js').MetricColumn | undefined} column
     */
    value(value, column) {
      if (value === null) return labels.conflictEmpty;
      return column === undefined ? String(value) : formatValue(value, column, lang);
    },
  };
}

/** @typedef {ReturnType<typeof createWording>} Wording */
