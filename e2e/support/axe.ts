/**
 * axe-core in the page, through the open shadow roots of the Gatehouse elements. `auditPage` runs
 * WCAG 2.x A/AA rules (contrast included) and returns the violations by impact; `expectAccessible`
 * fails on any serious or critical one, naming the rule and the nodes so the failure reads on its
 * own. Each audit's counts are appended to test-results/axe/<file>.jsonl for the closing note.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
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

export async function auditPage(page: Page, label: string): Promise<AxeSummary> {
  const builder = new AxeBuilder({ page }).withTags(TAGS);
  // With only same-origin frames, axe.run in the page reaches every frame itself: the builder's
  // cross-origin mode (axe.runPartial per frame, then finishRun in a new page it opens and loads
  // axe into) would audit the same nodes at about twice the cost. A cross-origin frame keeps it.
  if (sameOriginFrames(page)) builder.setLegacyMode(true);
  const results = await builder.analyze();
  const summary: AxeSummary = {
    label,
    passes: results.passes.length,
    violations: results.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => JSON.stringify(n.target)),
    })),
  };
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
