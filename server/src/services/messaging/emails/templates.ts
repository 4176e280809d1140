/**
 * One template per message (issue 11 section 5): what each email says, in the words of the
 * recipient's language (the catalogs in ./messages). A template only picks messages and fills them
 * in; the layout (./layout.ts) renders and escapes.
 */
import type { Translator } from '@gatehouse/shared/i18n';
import type { EmailContent } from './layout';
import type { EmailMessageKey } from './messages';

/** How long a link or code lives, in whole minutes, hours or days. */
export type Lifetime = { minutes: number } | { hours: number } | { days: number };

/** The data of every message, by template name. */
export interface EmailData {
  activation: { link: string; code: string | null; lifetime: Lifetime };
  invitation: { link: string; code: string | null; inviter: string | null; lifetime: Lifetime };
  passwordReset: { link: string; lifetime: Lifetime };
  unlock: { link: string; lifetime: Lifetime };
  magicLink: { link: string; lifetime: Lifetime };
  signInCode: { code: string; lifetime: Lifetime };
  mfaCode: { code: string; lifetime: Lifetime };
  resetPhone: { code: string; lifetime: Lifetime };
  phoneChanged: { phone: string };
  emailChangeVerify: { link: string; code: string; lifetime: Lifetime };
  emailChanged: { email: string };
}
export type EmailTemplateName = keyof EmailData;

/** What a template gets: the translator, the recipient's name and the sender (tenant) name. */
export interface TemplateContext {
  t: (key: EmailMessageKey, values?: Record<string, string | number>) => string;
  name: string;
  tenant: string;
}

/** A lifetime in the recipient's words ("10 minutes", "3 Tagen"). */
export function lifetimeText(t: TemplateContext['t'], lifetime: Lifetime): string {
  if ('days' in lifetime) return t('email.lifetime.days', { days: lifetime.days });
  if ('hours' in lifetime) return t('email.lifetime.hours', { hours: lifetime.hours });
  return t('email.lifetime.minutes', { minutes: lifetime.minutes });
}

/** A whole-unit lifetime for a number of seconds: days from one day up, else hours from one hour, else minutes. */
export function lifetimeOf(seconds: number): Lifetime {
  if (seconds >= 86_400) return { days: Math.max(1, Math.round(seconds / 86_400)) };
  if (seconds >= 3_600) return { hours: Math.max(1, Math.round(seconds / 3_600)) };
  return { minutes: Math.max(1, Math.round(seconds / 60)) };
}

type Template<N extends EmailTemplateName> = (c: TemplateContext, data: EmailData[N]) => EmailContent;

/** The parts every message shares: subject, greeting and footer. */
function frame(c: TemplateContext, prefix: string, rest: Omit<EmailContent, 'subject' | 'greeting' | 'footer' | 'heading'>): EmailContent {
  return {
    subject: c.t(`${prefix}.subject` as EmailMessageKey, { tenant: c.tenant }),
    heading: c.t(`${prefix}.heading` as EmailMessageKey, { tenant: c.tenant }),
    greeting: c.t('email.greeting', { name: c.name }),
    footer: c.t('email.footer', { tenant: c.tenant }),
    ...rest,
  };
}

const action = (c: TemplateContext, key: EmailMessageKey, url: string) => ({ label: c.t(key), url, copyHint: c.t('email.copyLink') });

export const EMAIL_TEMPLATES: { [N in EmailTemplateName]: Template<N> } = {
  activation: (c, d) =>
    frame(c, 'activation', {
      paragraphs: [c.t('activation.body', { lifetime: lifetimeText(c.t, d.lifetime) })],
      action: action(c, 'activation.button', d.link),
      ...(d.code ? { code: { intro: c.t('activation.code'), value: d.code } } : {}),
      notes: [c.t('activation.ignore')],
    }),

  invitation: (c, d) =>
    frame(c, 'invitation', {
      paragraphs: [c.t('invitation.body', { hasInviter: d.inviter ? 'yes' : 'no', inviter: d.inviter ?? '', tenant: c.tenant, lifetime: lifetimeText(c.t, d.lifetime) })],
      action: action(c, 'invitation.button', d.link),
      ...(d.code ? { code: { intro: c.t('invitation.code'), value: d.code } } : {}),
      notes: [c.t('invitation.ignore')],
    }),

  passwordReset: (c, d) =>
    frame(c, 'passwordReset', {
      paragraphs: [c.t('passwordReset.body', { lifetime: lifetimeText(c.t, d.lifetime) })],
      action: action(c, 'passwordReset.button', d.link),
      notes: [c.t('passwordReset.ignore')],
    }),

  unlock: (c, d) =>
    frame(c, 'unlock', {
      paragraphs: [c.t('unlock.body', { lifetime: lifetimeText(c.t, d.lifetime) })],
      action: action(c, 'unlock.button', d.link),
      notes: [c.t('unlock.note')],
    }),

  magicLink: (c, d) =>
    frame(c, 'magicLink', {
      paragraphs: [c.t('magicLink.body', { lifetime: lifetimeText(c.t, d.lifetime) })],
      action: action(c, 'magicLink.button', d.link),
      notes: [c.t('magicLink.ignore')],
    }),

  signInCode: (c, d) =>
    frame(c, 'signInCode', {
      paragraphs: [c.t('signInCode.body', { lifetime: lifetimeText(c.t, d.lifetime) })],
      code: { intro: c.t('signInCode.heading'), value: d.code },
      notes: [c.t('signInCode.ignore')],
    }),

  mfaCode: (c, d) =>
    frame(c, 'mfaCode', {
      paragraphs: [c.t('mfaCode.body', { lifetime: lifetimeText(c.t, d.lifetime) })],
      code: { intro: c.t('mfaCode.heading'), value: d.code },
      notes: [c.t('mfaCode.note')],
    }),

  resetPhone: (c, d) =>
    frame(c, 'resetPhone', {
      paragraphs: [c.t('resetPhone.body', { lifetime: lifetimeText(c.t, d.lifetime) })],
      code: { intro: c.t('resetPhone.heading'), value: d.code },
      notes: [c.t('resetPhone.ignore')],
    }),

  phoneChanged: (c, d) =>
    frame(c, 'phoneChanged', {
      paragraphs: [c.t('phoneChanged.body', { phone: d.phone })],
      notes: [c.t('phoneChanged.note')],
    }),

  emailChangeVerify: (c, d) =>
    frame(c, 'emailChangeVerify', {
      paragraphs: [c.t('emailChangeVerify.body', { lifetime: lifetimeText(c.t, d.lifetime) })],
      action: action(c, 'emailChangeVerify.button', d.link),
      code: { intro: c.t('emailChangeVerify.code'), value: d.code },
      notes: [c.t('emailChangeVerify.ignore')],
    }),

  emailChanged: (c, d) =>
    frame(c, 'emailChanged', {
      paragraphs: [c.t('emailChanged.body', { email: d.email })],
      notes: [c.t('emailChanged.note')],
    }),
};

/** Sample data of every template (the rendering test and the docs use it). */
export const EMAIL_SAMPLES: EmailData = {
  activation: { link: 'https://app.example.com/account/activate?userId=u1&token=t1', code: '123456', lifetime: { hours: 24 } },
  invitation: { link: 'https://app.example.com/account/invitation/accept?userId=u1&token=t1', code: '654321', inviter: 'Grace <Hopper>', lifetime: { days: 3 } },
  passwordReset: { link: 'https://app.example.com/account/reset-password?userId=u1&token=t1', lifetime: { minutes: 30 } },
  unlock: { link: 'https://app.example.com/account/unlock?token=t1', lifetime: { hours: 1 } },
  magicLink: { link: 'https://app.example.com/account/login/magic-link?token=t1', lifetime: { minutes: 15 } },
  signInCode: { code: '246810', lifetime: { minutes: 10 } },
  mfaCode: { code: '135790', lifetime: { minutes: 10 } },
  resetPhone: { code: '975310', lifetime: { minutes: 10 } },
  phoneChanged: { phone: '+44 ••• •• 00' },
  emailChangeVerify: { link: 'https://app.example.com/account/email/verify?token=t1', code: '112233', lifetime: { minutes: 30 } },
  emailChanged: { email: 'n***@example.org' },
};

/** The translator a template context uses: the recipient's catalog, English per missing key. */
export function templateTranslator(translator: Translator): TemplateContext['t'] {
  return (key, values) => translator.t(key, values);
}
