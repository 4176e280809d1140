/** Español: la sección Uso (puestos y funciones limitadas frente a los límites del plan). */
export default {
  'usage.loading': 'Cargando el uso…',
  'usage.intro': 'Lo que esta cuenta usa de los límites de su plan.',
  'usage.seats': 'Puestos',
  'usage.ofLimit': '{used, number} de {limit, number} en uso',
  'usage.unlimited': '{used, number} en uso · Ilimitado',
  'usage.meterText': '{used, number} de {limit, number}',
  'usage.near': 'Casi en el límite.',
  'usage.atLimit': 'En el límite: no se puede añadir nada más.',
  'usage.overLimit': 'Por encima del límite.',
  'usage.upgrade': 'Ver planes',
  'usage.noFeatures': 'Ninguna otra función de este plan está limitada.',
  'usage.features': 'Funciones limitadas',
  'usage.loadFailed': 'No se pudo cargar el uso.',
};
