/**
 * The admin portal's Reports section in Chromium against the real server (issue 16): a tenant admin
 * who signed up opens Reports, creates a report from the users-and-MFA template (a bad filter is
 * shown at its field first), previews it in the sandboxed frame, and downloads it as PDF: the file
 * is a PDF titled after the report, whose text lists the admin. Axe-clean with the list and with
 * the preview open; 1280 and 390 px, light and dark.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { inflatedText, pdfTitle } from '../server/src/test/pdf-text';
import { expectAccessible } from './support/axe';
import { signUpThroughApi, visible } from './support/journey';
import { rowAction, screenshotsAtBothWidths } from './support/portal';
import { useBrowserAndServer } from './support/server';

const ctx = useBrowserAndServer();

it('creates a report, previews it in a sandboxed frame and downloads it as a PDF with the report title', { timeout: 240_000 }, async () => {
  const { browser, server } = ctx;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const failedReportCalls: string[] = [];
  page.on('response', (r) => r.url().includes('/reports/') && r.status() >= 400 && failedReportCalls.push(`${r.status()} ${r.url()}`));
  const email = `reporter+${Date.now()}@example.com`;
  await signUpThroughApi(page, server.url, email);

  await page.getByRole('button', { name: 'Admin portal' }).click();
  const portal = page.getByRole('dialog', { name: 'Admin portal' });
  await visible(page, portal);
  await portal.getByRole('navigation', { name: 'Admin portal sections' }).getByRole('button', { name: 'Reports' }).click();
  await visible(page, portal.getByRole('heading', { name: 'Reports', level: 2 }));
  await visible(page, portal.getByText('No saved report yet. Create one from a template.'));
  await expectAccessible(page, 'reports section, empty');

  await portal.getByRole('button', { name: 'Create report: Users and MFA coverage' }).click();
  const dialog = portal.getByRole('dialog', { name: 'New report' });
  await visible(page, dialog);
  await dialog.getByLabel('Name').fill('Quarterly MFA review');
  await dialog.getByLabel('Rows at most').fill('5000');
  await dialog.getByRole('button', { name: 'Create report' }).click();
  await visible(page, dialog.getByText('Enter a whole number from 1 to 500.'));
  await expectAccessible(page, 'reports section, new report with a field error');
  await dialog.getByLabel('Rows at most').fill('50');
  await dialog.getByLabel('MFA').selectOption('false');
  await dialog.getByRole('button', { name: 'Create report' }).click();
  await visible(page, portal.getByText('Quarterly MFA review created.'));
  const row = portal.getByRole('row', { name: /Quarterly MFA review Users and MFA coverage/ });
  await visible(page, row);
  await screenshotsAtBothWidths(page, 'reports-list', { fullPage: true });

  await rowAction(page, row, 'Actions for Quarterly MFA review', 'Preview');
  const preview = portal.getByRole('dialog', { name: 'Quarterly MFA review' });
  await visible(page, preview);
  const frame = preview.getByTitle('Preview of Quarterly MFA review');
  await visible(page, frame);
  // No script may run in it; same origin only so the portal can give it the report's stylesheet.
  expect(await frame.getAttribute('sandbox')).toBe('allow-same-origin');
  const report = preview.frameLocator('iframe');
  await visible(page, report.getByRole('heading', { name: 'Quarterly MFA review', level: 1 }));
  await visible(page, report.getByRole('cell', { name: email }));
  // The report's stylesheet applies (adopted, whatever the host page's CSP says of inline styles): its body has the padding.
  expect(await frame.evaluate((f) => getComputedStyle((f as HTMLIFrameElement).contentDocument!.body).paddingTop)).toBe('24px');
  await expectAccessible(page, 'reports section, preview');
  await screenshotsAtBothWidths(page, 'reports-preview');

  const [download] = await Promise.all([page.waitForEvent('download'), preview.getByRole('button', { name: 'Download PDF' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^quarterly-mfa-review-\d{4}-\d{2}-\d{2}\.pdf$/);
  const pdf = readFileSync((await download.path())!);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdfTitle(pdf)).toBe('Quarterly MFA review');
  const text = inflatedText(pdf);
  expect(text).toContain('Quarterly MFA review');
  // A long address wraps in its table cell: its pieces are drawn line by line.
  expect(text.replace(/\n/g, '')).toContain(email);

  expect(failedReportCalls).toEqual([]);
  // Before sign-in the session probe's 401s are logged by Chromium; and the preview's frame refusing
  // the script axe puts into every frame (the sandbox at work). Nothing else: no CSP refusal of the
  // report's stylesheet, which the portal adopts instead of leaving inline.
  expect(errors.filter((e) => !/401|Failed to load resource/.test(e) && !/^Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed/.test(e))).toEqual([]);
  await context.close();
});
