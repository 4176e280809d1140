import type { ComponentProps } from 'react';
import { useI18n } from '../use-i18n';
import { PasswordField } from './PasswordField';

/**
 * The chosen password and its confirmation (activation by link or by code): the policy and the
 * strength meter on the first, each error at its own field.
 */
export function NewPasswordFields({ password, confirm, policy, passwordError, confirmError, onPassword, onConfirm }: {
  password: string;
  confirm: string;
  policy: ComponentProps<typeof PasswordField>['policy'];
  passwordError?: string | null;
  confirmError?: string | null;
  onPassword(value: string): void;
  onConfirm(value: string): void;
}) {
  const { t } = useI18n();
  return (
    <>
      <PasswordField label={t('field.password')} name="password" autoComplete="new-password" required policy={policy} strength value={password} error={passwordError} onChange={onPassword} />
      <PasswordField label={t('field.confirmPassword')} name="confirmPassword" autoComplete="new-password" required value={confirm} error={confirmError} onChange={onConfirm} />
    </>
  );
}
