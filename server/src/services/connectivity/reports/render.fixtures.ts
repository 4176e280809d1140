/** A report full of hostile text, for the renderers' tests. */
import type { ReportDocument } from './document';

export const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)> & 'quotes'`;

export function hostileDocument(rows = 3): ReportDocument {
  return {
    title: 'Quarterly MFA review',
    templateName: 'Users and MFA coverage',
    tenantName: `Acme ${HOSTILE}`,
    generatedAt: Date.UTC(2026, 10, 27, 9, 30),
    filters: [{ label: 'Joined from', value: '2026-01-01' }],
    summary: [{ label: 'Users', value: String(rows) }, { label: 'MFA coverage', value: '33.3%' }],
    tables: [
      {
        heading: 'Users',
        columns: ['Name', 'Email', 'MFA'],
        rows: Array.from({ length: rows }, (_, i) => [i === 0 ? HOSTILE : `User ${i}`, `user${i}@example.test`, i % 3 === 0 ? 'Enrolled' : 'Not enrolled']),
        empty: 'No user matches these filters.',
      },
      { heading: 'Nothing here', columns: ['A'], rows: [], empty: 'Nothing to show.' },
    ],
  };
}
