/** Spanish email catalog; checked against the English one by checkCatalogs. */
import type { EmailCatalog } from './index';

export const es: EmailCatalog = {
  'email.greeting': 'Hola, {name}:',
  'email.copyLink': 'O copia este enlace en tu navegador:',
  'email.footer': 'Enviado por {tenant}. Este es un mensaje automático; las respuestas no se leen.',
  'email.lifetime.minutes': '{minutes, plural, one {# minuto} other {# minutos}}',
  'email.lifetime.hours': '{hours, plural, one {# hora} other {# horas}}',
  'email.lifetime.days': '{days, plural, one {# día} other {# días}}',

  'activation.subject': 'Activa tu cuenta de {tenant}',
  'activation.heading': 'Confirma tu dirección de correo',
  'activation.body': 'Abre el enlace de abajo para activar tu cuenta. Funciona una sola vez, durante {lifetime}.',
  'activation.button': 'Activar cuenta',
  'activation.code': 'O escribe este código en la página de activación:',
  'activation.ignore': 'Si no te registraste, ignora este correo.',

  'invitation.subject': 'Te han invitado a unirte a {tenant}',
  'invitation.heading': 'Únete a {tenant}',
  'invitation.body': '{hasInviter, select, yes {{inviter} te ha invitado} other {Te han invitado}} a unirte a {tenant}. El enlace funciona durante {lifetime}.',
  'invitation.button': 'Aceptar invitación',
  'invitation.code': 'Tu código de invitación. Escríbelo en la página que abre el enlace; no lo compartas nunca:',
  'invitation.ignore': 'Si no esperabas esta invitación, ignora este correo.',

  'passwordReset.subject': 'Restablece tu contraseña de {tenant}',
  'passwordReset.heading': 'Restablece tu contraseña',
  'passwordReset.body': 'Alguien pidió restablecer la contraseña de tu cuenta. Este enlace funciona una sola vez, durante {lifetime}.',
  'passwordReset.button': 'Elegir una contraseña nueva',
  'passwordReset.ignore': 'Si no fuiste tú, ignora este correo: tu contraseña no cambia.',

  'unlock.subject': 'Desbloquea tu cuenta de {tenant}',
  'unlock.heading': 'Tu cuenta está bloqueada',
  'unlock.body': 'Tu cuenta se bloqueó tras demasiadas contraseñas incorrectas. Este enlace la desbloquea una sola vez, durante {lifetime}.',
  'unlock.button': 'Desbloquear mi cuenta',
  'unlock.note': 'Si esos intentos no fueron tuyos, puede que alguien esté intentando adivinar tu contraseña: después de desbloquearla, cámbiala.',

  'magicLink.subject': 'Tu enlace de inicio de sesión de {tenant}',
  'magicLink.heading': 'Iniciar sesión',
  'magicLink.body': 'Este enlace inicia tu sesión una sola vez, durante {lifetime}.',
  'magicLink.button': 'Iniciar sesión',
  'magicLink.ignore': 'Si no pediste iniciar sesión, ignora este correo.',

  'signInCode.subject': 'Tu código de inicio de sesión de {tenant}',
  'signInCode.heading': 'Tu código de inicio de sesión',
  'signInCode.body': 'Escribe este código para iniciar sesión. Caduca en {lifetime}. No lo compartas nunca.',
  'signInCode.ignore': 'Si no pediste iniciar sesión, ignora este correo.',

  'mfaCode.subject': 'Tu código de verificación de {tenant}',
  'mfaCode.heading': 'Tu código de verificación',
  'mfaCode.body': 'Escribe este código para confirmar que eres tú. Caduca en {lifetime} y funciona una sola vez.',
  'mfaCode.note': 'Si no intentaste iniciar sesión, cambia tu contraseña.',

  'resetPhone.subject': 'Restablece tu número de teléfono de {tenant}',
  'resetPhone.heading': 'Restablece tu número de teléfono',
  'resetPhone.body': 'Alguien pidió restablecer el número de teléfono de tu cuenta. Escribe este código para continuar. Caduca en {lifetime} y funciona una sola vez.',
  'resetPhone.ignore': 'Si no fuiste tú, ignora este correo: tu número de teléfono no cambia.',

  'phoneChanged.subject': 'Se cambió tu número de teléfono de {tenant}',
  'phoneChanged.heading': 'Se cambió tu número de teléfono',
  'phoneChanged.body': 'El número de teléfono de tu cuenta ahora es {phone}.',
  'phoneChanged.note': 'Si no hiciste este cambio, restablece tu contraseña y contacta con tu administrador.',

  'emailChangeVerify.subject': 'Confirma tu nueva dirección de correo para {tenant}',
  'emailChangeVerify.heading': 'Confirma tu nueva dirección de correo',
  'emailChangeVerify.body': 'Abre este enlace para usar esta dirección en tu cuenta. Funciona una sola vez, durante {lifetime}.',
  'emailChangeVerify.button': 'Confirmar dirección de correo',
  'emailChangeVerify.code': 'O escribe este código donde pediste el cambio:',
  'emailChangeVerify.ignore': 'Si no lo pediste, ignora este correo: no cambia nada.',

  'emailChanged.subject': 'Se cambió tu dirección de correo de {tenant}',
  'emailChanged.heading': 'Se cambió tu dirección de correo',
  'emailChanged.body': 'La dirección de correo de tu cuenta se cambió a {email}. Los correos sobre tu cuenta llegan ahora allí.',
  'emailChanged.note': 'Si no hiciste este cambio, contacta de inmediato con tu administrador.',
};
