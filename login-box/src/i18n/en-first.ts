/**
 * The English messages the sign-in form's first paint can show: the identifier step, its checks and
 * links (the wording of server errors comes later, with components/server-errors.ts). Bundled with
 * the login form; en.ts has the whole catalog (this and the rest) and its key type. A key
 * belongs here when code in the form's first chunk renders it (catalogs.test.ts checks that).
 */
export const enFirst = {
  'common.continue': 'Continue',
  'common.loading': 'Loading…',
  'field.email': 'Email',
  'field.username': 'Username',
  'field.phoneNumber': 'Phone number',
  'login.title': 'Sign in',
  'login.or': 'or',
  'login.noAccount': 'Don’t have an account?',
  'login.signUp': 'Sign up',
  'passkeys.signIn': 'Sign in with a passkey',
  'errors.field.email.required': 'Enter your email address.',
  'errors.field.email.invalid': 'Enter an email address like name@example.com.',
  'errors.field.username.required': 'Enter your username.',
  'errors.field.phoneNumber.required': 'Enter your phone number.',
  'errors.generic': "We're facing some difficulties, Please try again",
} as const;
