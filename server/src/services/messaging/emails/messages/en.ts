/**
 * English email catalog: the source every other language is checked against (checkCatalogs). ICU
 * messages; `{tenant}` is the tenant's name (or the product's), every value is escaped when the
 * HTML version is rendered.
 */
export const en = {
  'email.greeting': 'Hi {name},',
  'email.copyLink': 'Or copy this link into your browser:',
  'email.footer': 'Sent by {tenant}. This is an automated message; replies are not read.',
  'email.lifetime.minutes': '{minutes, plural, one {# minute} other {# minutes}}',
  'email.lifetime.hours': '{hours, plural, one {# hour} other {# hours}}',
  'email.lifetime.days': '{days, plural, one {# day} other {# days}}',

  'activation.subject': 'Activate your {tenant} account',
  'activation.heading': 'Confirm your email address',
  'activation.body': 'Open the link below to activate your account. It works once, within {lifetime}.',
  'activation.button': 'Activate account',
  'activation.code': 'Or type this code on the activation page:',
  'activation.ignore': 'If you did not sign up, ignore this email.',

  'invitation.subject': "You're invited to join {tenant}",
  'invitation.heading': 'Join {tenant}',
  'invitation.body': '{hasInviter, select, yes {{inviter} invited you} other {You are invited}} to join {tenant}. The link works within {lifetime}.',
  'invitation.button': 'Accept invitation',
  'invitation.code': 'Your invitation code. Type it on the page the link opens; never share it:',
  'invitation.ignore': 'If you did not expect this invitation, ignore this email.',

  'passwordReset.subject': 'Reset your {tenant} password',
  'passwordReset.heading': 'Reset your password',
  'passwordReset.body': 'Someone asked to reset the password of your account. This link works once, within {lifetime}.',
  'passwordReset.button': 'Choose a new password',
  'passwordReset.ignore': 'If it was not you, ignore this email: your password stays as it is.',

  'unlock.subject': 'Unlock your {tenant} account',
  'unlock.heading': 'Your account is locked',
  'unlock.body': 'Your account was locked after too many wrong passwords. This link unlocks it once, within {lifetime}.',
  'unlock.button': 'Unlock my account',
  'unlock.note': 'If these attempts were not yours, someone may be guessing your password: after unlocking, consider changing it.',

  'magicLink.subject': 'Your {tenant} sign-in link',
  'magicLink.heading': 'Sign in',
  'magicLink.body': 'This link signs you in once, within {lifetime}.',
  'magicLink.button': 'Sign in',
  'magicLink.ignore': 'If you did not ask to sign in, ignore this email.',

  'signInCode.subject': 'Your {tenant} sign-in code',
  'signInCode.heading': 'Your sign-in code',
  'signInCode.body': 'Type this code to sign in. It expires in {lifetime}. Never share it.',
  'signInCode.ignore': 'If you did not ask to sign in, ignore this email.',

  'mfaCode.subject': 'Your {tenant} verification code',
  'mfaCode.heading': 'Your verification code',
  'mfaCode.body': 'Type this code to confirm it is you. It expires in {lifetime} and works once.',
  'mfaCode.note': 'If you did not try to sign in, change your password.',

  'resetPhone.subject': 'Reset your {tenant} phone number',
  'resetPhone.heading': 'Reset your phone number',
  'resetPhone.body': 'Someone asked to reset the phone number of your account. Type this code to continue. It expires in {lifetime} and works once.',
  'resetPhone.ignore': 'If it was not you, ignore this email: your phone number stays as it is.',

  'phoneChanged.subject': 'Your {tenant} phone number was changed',
  'phoneChanged.heading': 'Your phone number was changed',
  'phoneChanged.body': 'The phone number of your account is now {phone}.',
  'phoneChanged.note': 'If you did not make this change, reset your password and contact your administrator.',

  'emailChangeVerify.subject': 'Confirm your new email address for {tenant}',
  'emailChangeVerify.heading': 'Confirm your new email address',
  'emailChangeVerify.body': 'Open this link to use this address for your account. It works once, within {lifetime}.',
  'emailChangeVerify.button': 'Confirm email address',
  'emailChangeVerify.code': 'Or type this code where you asked for the change:',
  'emailChangeVerify.ignore': 'If you did not ask for this, ignore this email: nothing changes.',

  'emailChanged.subject': 'Your {tenant} email address was changed',
  'emailChanged.heading': 'Your email address was changed',
  'emailChanged.body': 'The email address of your account was changed to {email}. Emails about your account now go there.',
  'emailChanged.note': 'If you did not make this change, contact your administrator at once.',
} as const;

export type EmailMessageKey = keyof typeof en;
