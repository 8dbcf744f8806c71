import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let source: Promise<string> | undefined;

/** One problem axe-core found, as much as a failing test needs to show. */
export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

/**
 * Runs axe-core (from npm, injected into the page) on the page as it is now, with its default
 * rules (WCAG 2.x A and AA and best practices; not the experimental ones), and returns the serious
 * and critical violations.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  source ??= readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Measured on the page at rest: a dialog still fading in (its opening animation) has text of
  // too little contrast for the moment it takes. Endless animations (a spinner) are not waited for.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const loaded = await page.evaluate(() => 'axe' in window);
  // Evaluated through the debugging protocol, not added as a <script>: the page's own
  // Content-Security-Policy stays in force for everything else.
  if (!loaded) await page.evaluate(await source);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{
            violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {});
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}
