import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useLocation } from '../../use-location';
import { Field } from '../../components/Field';
import { PasswordField } from '../../components/PasswordField';
import { SuccessState } from '../../components/SuccessState';
import { isEmail, useFieldErrors } from '../../components/use-field-errors';
import { usePasswordPolicy } from '../../components/use-password-policy';
import { confirmProblem, passwordProblem } from '../../components/password-errors';
import { useI18n } from '../../use-i18n';
import { SubmitButton } from '../../components/SubmitButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RouteLink } from '../../components/RouteLink';
import { useFocusFirst } from '../../components/use-focus-first';


/**
 * Accept invitation, with and without a one-time code (acceptInvitationUrl and
 * acceptInvitationWithOTCUrl, seed 000 sections 2.1, 2.2, 4.4): validate (greets the invitee by
 * name; a new account chooses its password, the code route asks for the emailed code) -> pending ->
 * success; invalid when the link lacks its token or userId; failed (with a resend form) when the link
 * cannot be verified. Loaded lazily: only invitation links land here.
 */
export default function AcceptInvitationScreen() {
  const { store, routes } = useLoginBox();
  const { invitation } = useAuth(store);
  const i18n = useI18n();
  const { t } = i18n;
  const { search } = useLocation();
  const userId = search.get('userId') ?? '';
  const token = search.get('token') ?? '';
  const started = useRef('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [code, setCode] = useState('');
  const [email, setEmail] = useState('');
  const { step } = invitation;
  // Until the link is verified (its flow chunk may still be loading) there is nobody to greet yet.
  const checking = step === 'validate' && (invitation.loading || invitation.name === undefined);
  const ref = useFocusFirst<HTMLDivElement>(checking ? 'checking' : step);
  const { errors, show, clear } = useFieldErrors(ref);
  const policy = usePasswordPolicy();

  useEffect(() => {
    // Once per link: verifying uses nothing up, but a re-render must not start it again.
    const key = `${userId}\n${token}`;
    if (started.current === key) return;
    started.current = key;
    void store.startInvitation({ userId, token });
  }, [store, userId, token]);

  const onAccept = (event: FormEvent) => {
    event.preventDefault();
    if (invitation.loading) return;
    const valid = show({
      'one-time-code': invitation.codeRequired && !/^\d{6}$/.test(code) ? t('errors.field.code.invalid') : undefined,
      password: invitation.shouldSetPassword ? passwordProblem(i18n, password, policy) : undefined,
      confirmPassword: invitation.shouldSetPassword ? confirmProblem(i18n, password, confirm) : undefined,
    });
    if (!valid) return;
    void store.acceptInvitation({ userId, token, ...(invitation.shouldSetPassword ? { password } : {}), ...(invitation.codeRequired ? { code } : {}) });
  };

  const onResend = (event: FormEvent) => {
    event.preventDefault();
    if (invitation.loading) return;
    const value = email.trim();
    if (show({ email: !value ? t('errors.field.email.required') : isEmail(value) ? undefined : t('errors.field.email.invalid') })) void store.resendInvitation(value);
  };

  const tenant = invitation.tenantName || t('invitation.theAccount');
  let title = t('invitation.title');
  let body;
  if (checking) {
    body = (
      <p role="status" className="gh-status" tabIndex={-1}>
        <span className="gh-spinner" aria-hidden="true" /> {t('invitation.checking')}
      </p>
    );
  } else if (step === 'validate' || step === 'pending') {
    body = (
      <form onSubmit={onAccept} noValidate aria-busy={invitation.loading}>
        <p>
          {t('invitation.greeting', { name: invitation.name ?? '', tenant })} {invitation.shouldSetPassword ? t('invitation.choosePassword') : t('invitation.acceptExisting')}
        </p>
        {invitation.email ? <Field label={t('field.email')} type="email" name="email" autoComplete="username" readOnly value={invitation.email} /> : null}
        {invitation.codeRequired ? (
          <Field
            label={t('invitation.codeLabel')}
            hint={t('invitation.codeHint')}
            name="one-time-code"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            required
            value={code}
            error={errors['one-time-code']}
            onChange={(e) => {
              setCode(e.target.value.replace(/\D/g, '').slice(0, 6));
              clear('one-time-code');
            }}
          />
        ) : null}
        {invitation.shouldSetPassword ? (
          <>
            <PasswordField
              label={t('field.password')}
              name="password"
              autoComplete="new-password"
              required
              policy={policy}
              strength
              userInputs={[invitation.name ?? '', invitation.email ?? '', tenant]}
              value={password}
              error={errors.password}
              onChange={(value) => {
                setPassword(value);
                clear('password');
              }}
            />
            <PasswordField label={t('field.confirmPassword')} name="confirmPassword" autoComplete="new-password" required value={confirm} error={errors.confirmPassword} onChange={(value) => {
              setConfirm(value);
              clear('confirmPassword');
            }} />
          </>
        ) : null}
        <ErrorAlert message={invitation.error} />
        <SubmitButton busy={step === 'pending'}>{t('invitation.accept')}</SubmitButton>
      </form>
    );
  } else if (step === 'success') {
    title = t('invitation.success.title');
    body =
      invitation.outcome === 'joined' ? (
        <SuccessState next={t('invitation.joined.next')}>{t('invitation.joined.text', { tenant })}</SuccessState>
      ) : (
        <SuccessState next={t('invitation.success.next')}>{t('invitation.success.text', { tenant })}</SuccessState>
      );
  } else if (invitation.resendSent) {
    body = (
      <p role="status" tabIndex={-1}>
        {t('invitation.resent')}
      </p>
    );
  } else {
    // invalid or failed: say why, and offer a new invitation email.
    body = (
      <form onSubmit={onResend} noValidate aria-busy={invitation.loading}>
        <ErrorAlert message={invitation.error ?? (step === 'invalid' ? t('invitation.incompleteLink') : null)} />
        <p>{t('invitation.resendIntro')}</p>
        <Field
          label={t('field.email')}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          value={email}
          error={errors.email}
          onChange={(e) => {
            setEmail(e.target.value);
            clear('email');
          }}
        />
        <SubmitButton busy={invitation.loading}>{t('invitation.resend')}</SubmitButton>
      </form>
    );
  }

  return (
    <div ref={ref}>
      <h1>{title}</h1>
      {body}
      {step === 'success' && invitation.outcome === 'joined' ? (
        <p className="gh-footer">
          <RouteLink to={routes.loginUrl}>{t('signUp.signIn')}</RouteLink>
        </p>
      ) : null}
    </div>
  );
}
