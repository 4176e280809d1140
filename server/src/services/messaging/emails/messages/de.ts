/** German email catalog (formal "Sie"); checked against the English one by checkCatalogs. */
import type { EmailCatalog } from './index';

export const de: EmailCatalog = {
  'email.greeting': 'Hallo {name},',
  'email.copyLink': 'Oder kopieren Sie diesen Link in Ihren Browser:',
  'email.footer': 'Gesendet von {tenant}. Dies ist eine automatische Nachricht; Antworten werden nicht gelesen.',
  'email.lifetime.minutes': '{minutes, plural, one {# Minute} other {# Minuten}}',
  'email.lifetime.hours': '{hours, plural, one {# Stunde} other {# Stunden}}',
  'email.lifetime.days': '{days, plural, one {# Tag} other {# Tagen}}',

  'activation.subject': 'Aktivieren Sie Ihr Konto bei {tenant}',
  'activation.heading': 'Bestätigen Sie Ihre E-Mail-Adresse',
  'activation.body': 'Öffnen Sie den Link unten, um Ihr Konto zu aktivieren. Er funktioniert einmal, innerhalb von {lifetime}.',
  'activation.button': 'Konto aktivieren',
  'activation.code': 'Oder geben Sie diesen Code auf der Aktivierungsseite ein:',
  'activation.ignore': 'Wenn Sie sich nicht registriert haben, ignorieren Sie diese E-Mail.',

  'invitation.subject': 'Sie sind eingeladen, {tenant} beizutreten',
  'invitation.heading': '{tenant} beitreten',
  'invitation.body': '{hasInviter, select, yes {{inviter} hat Sie eingeladen} other {Sie sind eingeladen}}, {tenant} beizutreten. Der Link funktioniert innerhalb von {lifetime}.',
  'invitation.button': 'Einladung annehmen',
  'invitation.code': 'Ihr Einladungscode. Geben Sie ihn auf der Seite ein, die der Link öffnet; geben Sie ihn niemals weiter:',
  'invitation.ignore': 'Wenn Sie diese Einladung nicht erwartet haben, ignorieren Sie diese E-Mail.',

  'passwordReset.subject': 'Setzen Sie Ihr Passwort bei {tenant} zurück',
  'passwordReset.heading': 'Passwort zurücksetzen',
  'passwordReset.body': 'Jemand hat angefordert, das Passwort Ihres Kontos zurückzusetzen. Dieser Link funktioniert einmal, innerhalb von {lifetime}.',
  'passwordReset.button': 'Neues Passwort wählen',
  'passwordReset.ignore': 'Wenn Sie das nicht waren, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.',

  'unlock.subject': 'Entsperren Sie Ihr Konto bei {tenant}',
  'unlock.heading': 'Ihr Konto ist gesperrt',
  'unlock.body': 'Ihr Konto wurde nach zu vielen falschen Passwörtern gesperrt. Dieser Link entsperrt es einmal, innerhalb von {lifetime}.',
  'unlock.button': 'Mein Konto entsperren',
  'unlock.note': 'Wenn diese Versuche nicht von Ihnen stammen, versucht möglicherweise jemand, Ihr Passwort zu erraten: Ändern Sie es nach dem Entsperren.',

  'magicLink.subject': 'Ihr Anmeldelink für {tenant}',
  'magicLink.heading': 'Anmelden',
  'magicLink.body': 'Dieser Link meldet Sie einmal an, innerhalb von {lifetime}.',
  'magicLink.button': 'Anmelden',
  'magicLink.ignore': 'Wenn Sie keine Anmeldung angefordert haben, ignorieren Sie diese E-Mail.',

  'signInCode.subject': 'Ihr Anmeldecode für {tenant}',
  'signInCode.heading': 'Ihr Anmeldecode',
  'signInCode.body': 'Geben Sie diesen Code ein, um sich anzumelden. Er läuft in {lifetime} ab. Geben Sie ihn niemals weiter.',
  'signInCode.ignore': 'Wenn Sie keine Anmeldung angefordert haben, ignorieren Sie diese E-Mail.',

  'mfaCode.subject': 'Ihr Bestätigungscode für {tenant}',
  'mfaCode.heading': 'Ihr Bestätigungscode',
  'mfaCode.body': 'Geben Sie diesen Code ein, um zu bestätigen, dass Sie es sind. Er läuft in {lifetime} ab und funktioniert einmal.',
  'mfaCode.note': 'Wenn Sie sich nicht anmelden wollten, ändern Sie Ihr Passwort.',

  'resetPhone.subject': 'Setzen Sie Ihre Telefonnummer bei {tenant} zurück',
  'resetPhone.heading': 'Telefonnummer zurücksetzen',
  'resetPhone.body': 'Jemand hat angefordert, die Telefonnummer Ihres Kontos zurückzusetzen. Geben Sie diesen Code ein, um fortzufahren. Er läuft in {lifetime} ab und funktioniert einmal.',
  'resetPhone.ignore': 'Wenn Sie das nicht waren, ignorieren Sie diese E-Mail: Ihre Telefonnummer bleibt unverändert.',

  'phoneChanged.subject': 'Ihre Telefonnummer bei {tenant} wurde geändert',
  'phoneChanged.heading': 'Ihre Telefonnummer wurde geändert',
  'phoneChanged.body': 'Die Telefonnummer Ihres Kontos lautet jetzt {phone}.',
  'phoneChanged.note': 'Wenn Sie diese Änderung nicht vorgenommen haben, setzen Sie Ihr Passwort zurück und wenden Sie sich an Ihre Administration.',

  'emailChangeVerify.subject': 'Bestätigen Sie Ihre neue E-Mail-Adresse für {tenant}',
  'emailChangeVerify.heading': 'Neue E-Mail-Adresse bestätigen',
  'emailChangeVerify.body': 'Öffnen Sie diesen Link, um diese Adresse für Ihr Konto zu verwenden. Er funktioniert einmal, innerhalb von {lifetime}.',
  'emailChangeVerify.button': 'E-Mail-Adresse bestätigen',
  'emailChangeVerify.code': 'Oder geben Sie diesen Code dort ein, wo Sie die Änderung angefordert haben:',
  'emailChangeVerify.ignore': 'Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Es ändert sich nichts.',

  'emailChanged.subject': 'Ihre E-Mail-Adresse bei {tenant} wurde geändert',
  'emailChanged.heading': 'Ihre E-Mail-Adresse wurde geändert',
  'emailChanged.body': 'Die E-Mail-Adresse Ihres Kontos wurde in {email} geändert. E-Mails zu Ihrem Konto gehen jetzt dorthin.',
  'emailChanged.note': 'Wenn Sie diese Änderung nicht vorgenommen haben, wenden Sie sich sofort an Ihre Administration.',
};
