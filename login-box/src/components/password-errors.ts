import type { PasswordConfig } from '@gatehouse/shared';
import type { LoginBoxI18n } from '../use-i18n';
import { checkPolicy } from './password-policy';

/** The first rule of the policy `password` breaks, in words, or undefined when it passes (empty: required). */
export function passwordProblem(i18n: LoginBoxI18n, password: string, policy: PasswordConfig | null): string | undefined {
  if (!password) return i18n.t('errors.field.password.required');
  if (!policy) return undefined;
  const check = checkPolicy(password, policy);
  if (check.ok) return undefined;
  if (check.tooLong) return i18n.t('errors.password.tooLong', { max: policy.maxLength });
  if (!check.length) return i18n.t('errors.password.tooShort', { min: policy.minLength });
  return i18n.t('errors.password.classes', { count: policy.minOptionalTestsToPass });
}

/** The confirmation field's problem: empty, or not the same as the password. */
export function confirmProblem(i18n: LoginBoxI18n, password: string, confirm: string): string | undefined {
  if (!confirm) return i18n.t('errors.field.confirm.required');
  return confirm === password ? undefined : i18n.t('errors.field.confirm.mismatch');
}
