/** Debian's Chromium driven by playwright-core (never a downloaded browser). */
import { chromium, type Browser } from 'playwright-core';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: run "apt-get install -y chromium" (npm test does this when missing).`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/** Where e2e screenshots go (looked at by people; not asserted). */
export function screenshotPath(name: string): string {
  const dir = join(repoRoot, 'e2e/screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.png`);
}
