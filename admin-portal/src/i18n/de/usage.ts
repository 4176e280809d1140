/** Deutsch: der Bereich Nutzung (Plätze und begrenzte Funktionen gegenüber den Grenzen des Tarifs). */
export default {
  'usage.loading': 'Nutzung wird geladen…',
  'usage.intro': 'Was dieses Konto von den Grenzen seines Tarifs nutzt.',
  'usage.seats': 'Plätze',
  'usage.ofLimit': '{used, number} von {limit, number} genutzt',
  'usage.unlimited': '{used, number} genutzt · Unbegrenzt',
  'usage.meterText': '{used, number} von {limit, number}',
  'usage.near': 'Fast an der Grenze.',
  'usage.atLimit': 'An der Grenze: Es kann nichts mehr hinzugefügt werden.',
  'usage.overLimit': 'Über der Grenze.',
  'usage.upgrade': 'Tarife ansehen',
  'usage.noFeatures': 'Keine weitere Funktion dieses Tarifs ist begrenzt.',
  'usage.features': 'Begrenzte Funktionen',
  'usage.loadFailed': 'Die Nutzung konnte nicht geladen werden.',
};
