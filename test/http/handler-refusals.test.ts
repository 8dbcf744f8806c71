import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TaskAssociationError } from '../../src/model/errors.js';
import * as requestErrors from '../../src/model/request-errors.js';
import { HANDLER_REFUSALS } from '../../web/association-screen/api.js';
import { sourceFiles, withoutComments } from '../support/source-files.js';

/*
 * The screen tells the handler's own refusal of a save (stop the entry: sending it again changes
 * nothing) from a host's or a proxy's page before it (keep the entry: it goes once the page is out
 * of the way) by the error code: web/association-screen/api.js keeps the handler's codes. Here they
 * are read from src/, where they are thrown, so that a code added there without the page knowing it
 * fails this test instead of leaving a refused entry waiting forever.
 */

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Each source file's text, comments left out (a doc comment may show a `new` as an example). */
const SOURCES = sourceFiles(SRC).map((file) => ({
  file: relative(SRC, file),
  text: withoutComments(readFileSync(file, 'utf8')),
}));

/**
 * The text of a call's first argument, from just after its `(` to the first comma (or `)`) outside
 * brackets and strings.
 */
function firstArgument(text: string, from: number): string {
  let depth = 0;
  for (let at = from; at < text.length; at++) {
    const char = text[at];
    if (char === "'" || char === '"' || char === '`') {
      at = text.indexOf(char, at + 1);
      if (at < 0) break;
    } else if (char === '(' || char === '[' || char === '{') depth++;
    else if (depth > 0 && (char === ')' || char === ']' || char === '}')) depth--;
    else if (depth === 0 && (char === ',' || char === ')')) return text.slice(from, at);
  }
  throw new Error(`no end to the argument at ${from}`);
}

/** The request errors of the handler that answer with a 4xx: each class, and its code when it has one of its own. */
const REFUSING = Object.entries(requestErrors).flatMap(([name, value]) => {
  if (typeof value !== 'function' || !(value.prototype instanceof TaskAssociationError)) return [];
  const Made = value as unknown as new (code: string, message: string) => TaskAssociationError;
  const made = new Made('X', 'x');
  const status = made.status ?? 0;
  if (status < 400 || status > 499) return [];
  // A class that names its own code (MetricConflictError) takes none from whoever throws it.
  return [{ name, fixed: made.code === 'X' ? undefined : made.code }];
});

/** Every code src/ gives the 4xx request errors, and the places whose code is not written there. */
function thrownCodes() {
  const codes = new Set(REFUSING.flatMap(({ fixed }) => (fixed === undefined ? [] : [fixed])));
  const unwritten: string[] = [];
  for (const { name } of REFUSING.filter(({ fixed }) => fixed === undefined)) {
    for (const { file, text } of SOURCES) {
      for (const made of text.matchAll(new RegExp(`\\bnew ${name}\\(`, 'g'))) {
        const argument = firstArgument(text, (made.index ?? 0) + made[0].length);
        const written = [...argument.matchAll(/'([A-Z][A-Z0-9_]*)'/g)].map((match) => match[1] ?? '');
        if (written.length === 0) unwritten.push(`${file}: new ${name}(${argument.trim()}`);
        for (const code of written) codes.add(code);
      }
    }
  }
  return { codes, unwritten };
}

describe('the codes the screen takes for the handler’s own refusal', () => {
  it('are every code src/ refuses a request with, and only those', () => {
    const { codes, unwritten } = thrownCodes();
    // A code held in a variable could not be read here: each is written where it is thrown.
    expect(unwritten).toEqual([]);
    expect(REFUSING.map(({ name }) => name)).toContain('InvalidRequestError');
    expect([...HANDLER_REFUSALS].sort()).toEqual([...codes].sort());
  });

  it('leave out the 4xx answers of the package’s other routes, which a node being deployed may give a save', () => {
    // `errorAnswer(404, 'NOT_FOUND', ...)` and the like: no route of the package answers a save with
    // them, but a node whose handler is not mounted yet may (the home page's 404): the entry waits.
    const others = new Set(
      SOURCES.flatMap(({ text }) =>
        [...text.matchAll(/errorAnswer\(\s*4\d\d\s*,\s*'([A-Z][A-Z0-9_]*)'/g)].map((match) => match[1] ?? ''),
      ),
    );
    expect(others).toContain('NOT_FOUND');
    expect([...others].filter((code) => HANDLER_REFUSALS.has(code))).toEqual([]);
  });
});
