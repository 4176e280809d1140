/** עברית: אזור השימוש (מושבים ותכונות מוגבלות מול המגבלות של התוכנית). */
export default {
  'usage.loading': 'השימוש נטען…',
  'usage.intro': 'מה החשבון הזה מנצל מהמגבלות של התוכנית שלו.',
  'usage.seats': 'מושבים',
  'usage.ofLimit': '{used, number} מתוך {limit, number} בשימוש',
  'usage.unlimited': '{used, number} בשימוש · ללא הגבלה',
  'usage.meterText': '{used, number} מתוך {limit, number}',
  'usage.near': 'כמעט במגבלה.',
  'usage.atLimit': 'במגבלה: אי אפשר להוסיף עוד.',
  'usage.overLimit': 'מעבר למגבלה.',
  'usage.upgrade': 'לתוכניות',
  'usage.noFeatures': 'אין עוד תכונה מוגבלת בתוכנית הזו.',
  'usage.features': 'תכונות מוגבלות',
  'usage.loadFailed': 'לא ניתן היה לטעון את השימוש.',
};
