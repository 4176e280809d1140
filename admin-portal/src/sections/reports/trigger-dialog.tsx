import { useId, useState, type FormEvent } from 'react';
import { REPORT_LIMITS, REPORT_SCHEDULES, type ReportSchedule } from '@gatehouse/shared/admin-paths';
import type { ReportTrigger, TenantReport } from '@gatehouse/shared/wire';
import { DialogFooter } from '../dialogs/dialog-footer';
import { useSave } from '../dialogs/use-save';
import { Modal } from '../users/modal';
import { useT } from '../../i18n/i18n-context';
import { badRecipient, recipientsOf } from './report-form';
import type { TriggerInput } from './reports-api';

/** Create or edit a schedule that emails a saved report: the report, weekly or monthly, the recipients, on or off. */
export function TriggerDialog({ trigger, reports, initialReportId, save, onClose }: {
  trigger: ReportTrigger | null;
  reports: TenantReport[];
  initialReportId: string;
  save: (input: TriggerInput) => Promise<void>;
  onClose: () => void;
}) {
  const t = useT();
  const ids = useId();
  const [reportId, setReportId] = useState(trigger?.reportId ?? initialReportId);
  const [schedule, setSchedule] = useState<ReportSchedule>(trigger?.schedule ?? 'weekly');
  const [recipientsText, setRecipientsText] = useState((trigger?.recipients ?? []).join('\n'));
  const [enabled, setEnabled] = useState(trigger?.enabled ?? true);
  const [problem, setProblem] = useState('');
  const { busy, error, run } = useSave();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const recipients = recipientsOf(recipientsText);
    const bad = badRecipient(recipients);
    const issue = recipients.length === 0 ? t.t('reports.problem.recipientsMissing')
      : bad ? t.t('reports.problem.recipientInvalid', { address: bad })
      : recipients.length > REPORT_LIMITS.recipientsPerTrigger ? t.t('reports.problem.recipientsMany', { max: REPORT_LIMITS.recipientsPerTrigger }) : '';
    setProblem(issue);
    if (issue) return;
    await run(() => save({ ...(trigger ? { id: trigger.id } : {}), reportId, schedule, recipients, enabled }));
  }

  return (
    <Modal title={trigger ? t.t('reports.trigger.editTitle') : t.t('reports.trigger.newTitle')} onClose={onClose} busy={busy}>
      <form className="gh-ap-form" onSubmit={submit} noValidate>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${ids}-report`}>{t.t('reports.trigger.report')}</label>
          <select id={`${ids}-report`} className="gh-ap-select" value={reportId} disabled={busy} data-autofocus onChange={(e) => setReportId(e.target.value)}>
            {reports.map((r) => <option key={r.id} value={r.id}>{r.name}</option>)}
          </select>
        </div>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${ids}-schedule`}>{t.t('reports.trigger.schedule')}</label>
          <select id={`${ids}-schedule`} className="gh-ap-select" value={schedule} disabled={busy} aria-describedby={`${ids}-schedule-hint`} onChange={(e) => setSchedule(e.target.value as ReportSchedule)}>
            {REPORT_SCHEDULES.map((s) => <option key={s} value={s}>{t.t(`reports.schedule.${s}`)}</option>)}
          </select>
          <p id={`${ids}-schedule-hint`} className="gh-ap-hint">{t.t(`reports.schedule.${schedule}.hint`)}</p>
        </div>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${ids}-recipients`}>{t.t('reports.trigger.recipients')}</label>
          <textarea
            id={`${ids}-recipients`}
            className="gh-ap-input gh-ap-textarea"
            value={recipientsText}
            disabled={busy}
            spellCheck={false}
            aria-invalid={problem ? true : undefined}
            aria-describedby={[`${ids}-recipients-hint`, problem ? `${ids}-recipients-error` : ''].filter(Boolean).join(' ')}
            onChange={(e) => setRecipientsText(e.target.value)}
          />
          <p id={`${ids}-recipients-hint`} className="gh-ap-hint">{t.t('reports.trigger.recipientsHint', { max: REPORT_LIMITS.recipientsPerTrigger })}</p>
          {problem && <p id={`${ids}-recipients-error`} className="gh-ap-field-error" role="alert">{problem}</p>}
        </div>
        <label className="gh-ap-check" htmlFor={`${ids}-enabled`}>
          <input id={`${ids}-enabled`} type="checkbox" checked={enabled} disabled={busy} onChange={(e) => setEnabled(e.target.checked)} />
          <span>{t.t('reports.trigger.enabled')}</span>
        </label>
        <DialogFooter error={error} busy={busy} label={trigger ? t.t('reports.dialog.save') : t.t('reports.trigger.create')} onClose={onClose} />
      </form>
    </Modal>
  );
}
