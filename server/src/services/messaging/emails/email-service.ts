/**
 * Every email Gatehouse sends is made here (issue 11 section 5): in the recipient's language (their
 * stored locale, else the one the request asked for, else English), greeting them by their name,
 * in their tenant's name, logo and colour (Account settings and its custom login look), as an HTML
 * and a text version. Services hand the result to the Mailer.
 */
import { AccountPaths } from '@gatehouse/shared/wire';
import { createTranslator, DEFAULT_LOCALE, directionOf, supportedLocale, type Locale } from '@gatehouse/shared/i18n';
import type { Config } from '../../../config';
import type { Db } from '../../../db';
import { findAccountSettings } from '../../../db/queries/account-settings';
import { findTenant, listUserTenants } from '../../../db/queries/tenants';
import type { MailMessage } from '../mail';
import { DEFAULT_BRAND_COLOR, renderEmail, safeColor, type EmailBrand } from './layout';
import { EMAIL_CATALOGS } from './messages';
import { EMAIL_TEMPLATES, templateTranslator, type EmailData, type EmailTemplateName } from './templates';

/** Who an email is for: a user row or its fields. */
export interface EmailRecipient {
  id: string;
  email: string | null;
  name: string;
  locale?: string | null;
  last_tenant_id?: string | null;
}

export interface EmailOptions {
  /** Another address than the recipient's (a new address being proven). */
  to?: string;
  /** The tenant whose look the email wears (default: the recipient's last, else first, tenant). */
  tenantId?: string | null;
  /** The language the request asked for; used when the recipient has no stored locale. */
  locale?: string | null;
}

export interface EmailService {
  render<N extends EmailTemplateName>(template: N, recipient: EmailRecipient, data: EmailData[N], options?: EmailOptions): Promise<MailMessage>;
}

/** The recipient's language: their stored locale, else the request's, else English. */
export function emailLocale(stored: string | null | undefined, requested: string | null | undefined): Locale {
  return supportedLocale(stored) ?? supportedLocale(requested) ?? DEFAULT_LOCALE;
}

/** Renders one template with a given brand and locale (no database): the service below and the rendering test use it. */
export function renderTemplate<N extends EmailTemplateName>(template: N, data: EmailData[N], input: { to: string; name: string; brand: EmailBrand; locale: Locale }): MailMessage {
  const translator = createTranslator(input.locale, EMAIL_CATALOGS[input.locale], EMAIL_CATALOGS.en);
  const content = EMAIL_TEMPLATES[template]({ t: templateTranslator(translator), name: input.name, tenant: input.brand.name }, data);
  return { to: input.to, fromName: input.brand.name, ...renderEmail(content, input.brand, input.locale, directionOf(input.locale)) };
}

/** The tenant's name, logo and (with custom login on) login colour; the product's name and default colour without a tenant. */
export async function loadEmailBrand(db: Db, config: Pick<Config, 'publicUrl' | 'appName'>, tenantId: string | null): Promise<EmailBrand> {
  const tenant = tenantId ? await findTenant(db, tenantId) : undefined;
  if (!tenant) return { name: config.appName, logoUrl: null, color: DEFAULT_BRAND_COLOR };
  const settings = await findAccountSettings(db, tenant.id);
  return {
    name: tenant.name.trim() || config.appName,
    logoUrl: settings?.logo_id ? `${config.publicUrl}${AccountPaths.accountLogo.replace('{logoId}', encodeURIComponent(settings.logo_id))}` : null,
    color: settings?.has_custom_login === 1 ? safeColor(settings.login_color) : DEFAULT_BRAND_COLOR,
  };
}

export function createEmailService(deps: { db: Db; config: Pick<Config, 'publicUrl' | 'appName'> }): EmailService {
  const { db, config } = deps;

  const brandOf = (tenantId: string | null) => loadEmailBrand(db, config, tenantId);

  async function tenantOf(recipient: EmailRecipient, options: EmailOptions): Promise<string | null> {
    if (options.tenantId) return options.tenantId;
    if (recipient.last_tenant_id) return recipient.last_tenant_id;
    return (await listUserTenants(db, recipient.id))[0]?.id ?? null;
  }

  return {
    async render(template, recipient, data, options = {}) {
      const to = options.to ?? recipient.email;
      if (!to) throw new Error(`No address to send the ${template} email to`);
      const brand = await brandOf(await tenantOf(recipient, options));
      return renderTemplate(template, data, { to, name: recipient.name, brand, locale: emailLocale(recipient.locale, options.locale) });
    },
  };
}
