/**
 * axe-core in the page, through the open shadow roots of the Gatehouse elements. `auditPage` runs
 * WCAG 2.x A/AA rules (contrast included) and returns the violations by impact; `expectAccessible`
 * fails on any serious or critical one, naming the rule and the nodes so the failure reads on its
 * own. Each audit's counts are appended to test-results/axe/<file>.jsonl for the closing note.
 */
import { AxeBuilder } from '@axe-core/playwright';
import axe from 'axe-core';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Frame, Page } from 'playwright-core';
import { appendFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect } from 'vitest';
import { repoRoot } from './paths';

export interface AxeSummary {
  label: string;
  passes: number;
  violations: { id: string; impact: string | null; help: string; targets: string[] }[];
}

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Whether every frame of the page has the main frame's origin (about:blank frames inherit it). */
function sameOriginFrames(page: Page): boolean {
  const origin = new URL(page.url()).origin;
  return page.frames().every((frame) => !/^https?:/.test(frame.url()) || new URL(frame.url()).origin === origin);
}

/** Loads axe-core into a frame unless this document already has it, then sets it to same-origin frames. */
async function loadAxe(frame: Frame): Promise<void> {
  if (!(await frame.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function'))) await frame.evaluate(axe.source);
  await frame.evaluate(() => (window as unknown as { axe: typeof axe }).axe.configure({ allowedOrigins: ['<same_origin>'], branding: { application: 'playwright' } }));
}

/** What an audit keeps of axe's results: the passed rules' count, and each violation with its first nodes. */
type AuditCounts = Omit<AxeSummary, 'label'>;

/**
 * axe.run in the page, which reaches every (same-origin) frame itself: what AxeBuilder's legacy
 * mode runs, with the same rules, but with axe-core (650 KB) evaluated once per document instead
 * of twice per audit in the page and once more in every frame (measured 180 ms each under load);
 * the audits of one document share it, as axe.run sets up and tears down its state on each run.
 * Only what the summary keeps crosses back to Node: axe lists one node per passed, incomplete and
 * inapplicable rule (`resultTypes`, its documented option for this) instead of every node with its
 * HTML, and the page answers the counts instead of the whole result, which it serialized and the
 * test worker parsed for every audit (megabytes on a portal section). Violations keep every node.
 */
async function runInPage(page: Page): Promise<AuditCounts> {
  await loadAxe(page.mainFrame());
  // As the builder: a frame that cannot take axe (detached, still loading) is left out, not fatal.
  await Promise.all(page.frames().filter((f) => f !== page.mainFrame()).map((f) => loadAxe(f).catch(() => undefined)));
  const options: RunOptions = { runOnly: { type: 'tag', values: TAGS }, resultTypes: ['violations'] };
  const answer = await page.evaluate(
    ({ options }) =>
      (window as unknown as { axe: typeof axe }).axe
        .run({ exclude: [], include: [] } as never, options)
        .then((results) => ({
          error: null,
          counts: {
            passes: results.passes.length,
            violations: results.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, targets: v.nodes.slice(0, 5).map((n) => JSON.stringify(n.target)) })),
          },
        }))
        .catch((err: Error) => ({ error: err.message, counts: null })),
    { options },
  );
  if (answer.error !== null) throw new Error(answer.error);
  return answer.counts as AuditCounts;
}

/** The summary's part of AxeBuilder's results (a page with a cross-origin frame). */
function countsOf(results: AxeResults): AuditCounts {
  return {
    passes: results.passes.length,
    violations: results.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, targets: v.nodes.slice(0, 5).map((n) => JSON.stringify(n.target)) })),
  };
}

/**
 * Lets the finite animations running in the page end first (a toast fading in, a dialog sliding
 * open; in the document and in every open shadow root), at most 2 s: axe reads colours as they are
 * at that instant, and a toast caught in its 0.18 s fade-in failed color-contrast against the
 * settled screen's colours. Endless ones (spinners, skeleton shimmer) are not waited for.
 */
async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const roots: (Document | ShadowRoot)[] = [document];
    for (let i = 0; i < roots.length; i++) {
      for (const el of roots[i]!.querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
    }
    const finite = roots.flatMap((root) => root.getAnimations()).filter((a) => a.playState === 'running' && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    await Promise.race([Promise.all(finite.map((a) => a.finished.catch(() => undefined))), new Promise((resolve) => setTimeout(resolve, 2000))]);
  });
}

export async function auditPage(page: Page, label: string): Promise<AxeSummary> {
  await animationsSettled(page);
  // With only same-origin frames, axe.run in the page reaches every frame itself: the builder's
  // cross-origin mode (axe.runPartial per frame, then finishRun in a new page it opens and loads
  // axe into) would audit the same nodes at about twice the cost. A cross-origin frame keeps it.
  // AxeBuilder's options() replaces what withTags() set, so it comes first.
  const counts = sameOriginFrames(page) ? await runInPage(page) : countsOf(await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).withTags(TAGS).analyze());
  const summary: AxeSummary = { label, ...counts };
  const dir = join(repoRoot, 'test-results/axe');
  mkdirSync(dir, { recursive: true });
  const file = basename(expect.getState().testPath ?? 'unknown').replace(/\.e2e\.test\.ts$/, '');
  appendFileSync(join(dir, `${file}.jsonl`), `${JSON.stringify(summary)}\n`);
  return summary;
}

/** Fails on any serious or critical violation; minor and moderate ones are recorded only. */
export async function expectAccessible(page: Page, label: string): Promise<AxeSummary> {
  const summary = await auditPage(page, label);
  const blocking = summary.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(blocking, `${label}: ${blocking.map((v) => `${v.id} (${v.impact}) ${v.help} at ${v.targets.join(', ')}`).join('; ')}`).toEqual([]);
  return summary;
}
