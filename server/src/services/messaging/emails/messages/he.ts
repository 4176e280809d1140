/** Hebrew email catalog (emails in it are laid out right to left); checked against the English one by checkCatalogs. */
import type { EmailCatalog } from './index';

export const he: EmailCatalog = {
  'email.greeting': 'שלום {name},',
  'email.copyLink': 'או העתיקו את הקישור הזה לדפדפן:',
  'email.footer': 'נשלח על ידי {tenant}. זוהי הודעה אוטומטית; תשובות אינן נקראות.',
  'email.lifetime.minutes': '{minutes, plural, one {דקה אחת} other {# דקות}}',
  'email.lifetime.hours': '{hours, plural, one {שעה אחת} other {# שעות}}',
  'email.lifetime.days': '{days, plural, one {יום אחד} other {# ימים}}',

  'activation.subject': 'הפעילו את החשבון שלכם ב-{tenant}',
  'activation.heading': 'אשרו את כתובת הדוא"ל שלכם',
  'activation.body': 'פתחו את הקישור שלמטה כדי להפעיל את החשבון. הוא פועל פעם אחת, בתוך {lifetime}.',
  'activation.button': 'הפעלת החשבון',
  'activation.code': 'או הקלידו את הקוד הזה בדף ההפעלה:',
  'activation.ignore': 'אם לא נרשמתם, התעלמו מהודעה זו.',

  'invitation.subject': 'הוזמנתם להצטרף ל-{tenant}',
  'invitation.heading': 'הצטרפות ל-{tenant}',
  'invitation.body': '{hasInviter, select, yes {{inviter} הזמין/ה אתכם} other {הוזמנתם}} להצטרף ל-{tenant}. הקישור פועל בתוך {lifetime}.',
  'invitation.button': 'קבלת ההזמנה',
  'invitation.code': 'קוד ההזמנה שלכם. הקלידו אותו בדף שהקישור פותח; לעולם אל תשתפו אותו:',
  'invitation.ignore': 'אם לא ציפיתם להזמנה הזו, התעלמו מהודעה זו.',

  'passwordReset.subject': 'איפוס הסיסמה שלכם ב-{tenant}',
  'passwordReset.heading': 'איפוס סיסמה',
  'passwordReset.body': 'מישהו ביקש לאפס את הסיסמה של החשבון שלכם. הקישור פועל פעם אחת, בתוך {lifetime}.',
  'passwordReset.button': 'בחירת סיסמה חדשה',
  'passwordReset.ignore': 'אם זה לא הייתם אתם, התעלמו מהודעה זו: הסיסמה שלכם לא משתנה.',

  'unlock.subject': 'שחרור הנעילה של החשבון שלכם ב-{tenant}',
  'unlock.heading': 'החשבון שלכם נעול',
  'unlock.body': 'החשבון שלכם ננעל אחרי יותר מדי סיסמאות שגויות. הקישור משחרר אותו פעם אחת, בתוך {lifetime}.',
  'unlock.button': 'שחרור נעילת החשבון',
  'unlock.note': 'אם הניסיונות האלה לא היו שלכם, ייתכן שמישהו מנסה לנחש את הסיסמה שלכם: אחרי שחרור הנעילה, כדאי לשנות אותה.',

  'magicLink.subject': 'קישור הכניסה שלכם ל-{tenant}',
  'magicLink.heading': 'כניסה',
  'magicLink.body': 'הקישור הזה מכניס אתכם פעם אחת, בתוך {lifetime}.',
  'magicLink.button': 'כניסה',
  'magicLink.ignore': 'אם לא ביקשתם להיכנס, התעלמו מהודעה זו.',

  'signInCode.subject': 'קוד הכניסה שלכם ל-{tenant}',
  'signInCode.heading': 'קוד הכניסה שלכם',
  'signInCode.body': 'הקלידו את הקוד הזה כדי להיכנס. הוא יפוג בעוד {lifetime}. לעולם אל תשתפו אותו.',
  'signInCode.ignore': 'אם לא ביקשתם להיכנס, התעלמו מהודעה זו.',

  'mfaCode.subject': 'קוד האימות שלכם ל-{tenant}',
  'mfaCode.heading': 'קוד האימות שלכם',
  'mfaCode.body': 'הקלידו את הקוד הזה כדי לאשר שזה אתם. הוא יפוג בעוד {lifetime} ופועל פעם אחת.',
  'mfaCode.note': 'אם לא ניסיתם להיכנס, שנו את הסיסמה שלכם.',

  'resetPhone.subject': 'איפוס מספר הטלפון שלכם ב-{tenant}',
  'resetPhone.heading': 'איפוס מספר הטלפון',
  'resetPhone.body': 'מישהו ביקש לאפס את מספר הטלפון של החשבון שלכם. הקלידו את הקוד הזה כדי להמשיך. הוא יפוג בעוד {lifetime} ופועל פעם אחת.',
  'resetPhone.ignore': 'אם זה לא הייתם אתם, התעלמו מהודעה זו: מספר הטלפון שלכם לא משתנה.',

  'phoneChanged.subject': 'מספר הטלפון שלכם ב-{tenant} שונה',
  'phoneChanged.heading': 'מספר הטלפון שלכם שונה',
  'phoneChanged.body': 'מספר הטלפון של החשבון שלכם הוא עכשיו {phone}.',
  'phoneChanged.note': 'אם לא ביצעתם את השינוי הזה, אפסו את הסיסמה ופנו למנהל המערכת.',

  'emailChangeVerify.subject': 'אשרו את כתובת הדוא"ל החדשה שלכם ב-{tenant}',
  'emailChangeVerify.heading': 'אישור כתובת הדוא"ל החדשה',
  'emailChangeVerify.body': 'פתחו את הקישור כדי להשתמש בכתובת הזו בחשבון שלכם. הוא פועל פעם אחת, בתוך {lifetime}.',
  'emailChangeVerify.button': 'אישור כתובת הדוא"ל',
  'emailChangeVerify.code': 'או הקלידו את הקוד הזה במקום שבו ביקשתם את השינוי:',
  'emailChangeVerify.ignore': 'אם לא ביקשתם זאת, התעלמו מהודעה זו: שום דבר לא משתנה.',

  'emailChanged.subject': 'כתובת הדוא"ל שלכם ב-{tenant} שונתה',
  'emailChanged.heading': 'כתובת הדוא"ל שלכם שונתה',
  'emailChanged.body': 'כתובת הדוא"ל של החשבון שלכם שונתה ל-{email}. הודעות על החשבון יישלחו מעכשיו לשם.',
  'emailChanged.note': 'אם לא ביצעתם את השינוי הזה, פנו מיד למנהל המערכת.',
};
