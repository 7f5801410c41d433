/**
 * The portal's mails, in Spanish, as plain text and HTML. They speak for the group, not for one
 * distributor, because an account serves the three. The HTML escapes every interpolated value and
 * loads nothing from outside (no images, fonts or styles), so it renders the same in any client and
 * tracks no one.
 */

/** Name every mail signs with (docs/api.md "The three distributors"). */
export const GRUPO = 'Grupo Electra Distribución';

/** A mail's subject and both bodies. */
export interface Correo {
  /** Subject line. */
  subject: string;
  /** Plain-text body. */
  text: string;
  /** HTML body, every interpolated value escaped. */
  html: string;
}

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Date and time as a person in Spain reads it, e.g. "2 de noviembre de 2026 a las 10:00". */
export function fechaEspanola(date: Date): string {
  return new Intl.DateTimeFormat('es-ES', { timeZone: 'Europe/Madrid', dateStyle: 'long', timeStyle: 'short' }).format(date);
}

/** One paragraph of a mail: plain text, or text with one link. */
type Parrafo = string | { antes: string; enlace: string; texto: string; despues?: string };

/** The shared shell: greeting, paragraphs, an optional button, and the group's signature. */
function componer(p: {
  subject: string;
  saludo: string;
  parrafos: Parrafo[];
  boton?: { texto: string; enlace: string };
  pie: Parrafo[];
}): Correo {
  const firma = ['Atentamente,', `El equipo del portal de ${GRUPO}`];
  const aviso = 'Este mensaje se ha enviado automáticamente; por favor, no responda a esta dirección.';

  const textoParrafo = (x: Parrafo) => (typeof x === 'string' ? x : `${x.antes}${x.enlace}${x.despues ?? ''}`);
  const text = [
    p.saludo,
    '',
    ...p.parrafos.flatMap((x) => [textoParrafo(x), '']),
    // The link alone on its line, so any client makes it clickable and it copies whole.
    ...(p.boton ? [`${p.boton.texto}:`, p.boton.enlace, ''] : []),
    ...p.pie.flatMap((x) => [textoParrafo(x), '']),
    ...firma,
    '',
    aviso,
    '',
  ].join('\n');

  const parrafoHtml = (x: Parrafo) =>
    typeof x === 'string'
      ? `<p style="margin:0 0 16px">${escapeHtml(x)}</p>`
      : `<p style="margin:0 0 16px">${escapeHtml(x.antes)}<a href="${escapeHtml(x.enlace)}" style="color:#0b4f8a">${escapeHtml(x.texto)}</a>${escapeHtml(x.despues ?? '')}</p>`;
  const boton = p.boton
    ? `<p style="margin:24px 0"><a href="${escapeHtml(p.boton.enlace)}" style="display:inline-block;background:#0b4f8a;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:4px;font-weight:bold">${escapeHtml(p.boton.texto)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#555555">Si el botón no funciona, copie esta dirección en su navegador:<br><span style="word-break:break-all">${escapeHtml(p.boton.enlace)}</span></p>`
    : '';
  const html = `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(p.subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:6px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2933">
<tr><td style="padding:20px 28px;background:#0b2e4f;color:#ffffff;font-size:18px;font-weight:bold;border-radius:6px 6px 0 0">${escapeHtml(GRUPO)}</td></tr>
<tr><td style="padding:28px">
<p style="margin:0 0 16px">${escapeHtml(p.saludo)}</p>
${p.parrafos.map(parrafoHtml).join('\n')}
${boton}
${p.pie.map(parrafoHtml).join('\n')}
<p style="margin:24px 0 0">${firma.map(escapeHtml).join('<br>')}</p>
</td></tr>
<tr><td style="padding:16px 28px;font-size:12px;color:#6b7280;border-top:1px solid #e5e7eb">${escapeHtml(aviso)}</td></tr>
</table>
</td></tr></table>
</body>
</html>
`;
  return { subject: p.subject, text, html };
}

/** Greeting with the account's display name, or a neutral one when there is none. */
const saludo = (nombre: string) => (nombre.trim() ? `Hola, ${nombre.trim()}:` : 'Hola:');

/**
 * The activation mail sent after registration; the link lives 48 hours. It goes to an address nobody
 * has confirmed yet, so it carries nothing the registrant typed: anyone may register someone else's
 * address, and a name field would let them write to it in the portal's voice.
 */
export function correoActivacion(p: { enlace: string }): Correo {
  return componer({
    subject: `Active su cuenta del portal de ${GRUPO}`,
    saludo: saludo(''),
    parrafos: [
      `Hemos recibido una solicitud de alta en el portal de las distribuidoras de ${GRUPO} con esta dirección de correo electrónico.`,
      'Para confirmar su dirección y activar la cuenta, abra el enlace siguiente. El enlace es válido durante 48 horas y solo puede usarse una vez.',
    ],
    boton: { texto: 'Activar mi cuenta', enlace: p.enlace },
    pie: ['Si no ha solicitado esta alta, ignore este mensaje: la cuenta no se activará y sus datos se borrarán en 30 días.'],
  });
}

/** The password-reset mail; the link lives one hour and replaces any earlier one. */
export function correoRestablecimiento(p: { nombre: string; enlace: string }): Correo {
  return componer({
    subject: `Recupere su contraseña del portal de ${GRUPO}`,
    saludo: saludo(p.nombre),
    parrafos: [
      'Hemos recibido una solicitud para recuperar la contraseña de su cuenta del portal.',
      'Para elegir una contraseña nueva, abra el enlace siguiente. El enlace es válido durante 1 hora, solo puede usarse una vez y anula los enlaces que le hayamos enviado antes.',
    ],
    boton: { texto: 'Elegir una contraseña nueva', enlace: p.enlace },
    pie: ['Si no ha pedido recuperar su contraseña, ignore este mensaje: su contraseña actual sigue siendo válida.'],
  });
}

/** The confirmation sent after a password change; it tells the owner how to react if it was not them. */
export function correoClaveCambiada(p: { nombre: string; fecha: Date; enlaceRecuperar: string }): Correo {
  return componer({
    subject: `Su contraseña del portal de ${GRUPO} ha cambiado`,
    saludo: saludo(p.nombre),
    parrafos: [
      `La contraseña de su cuenta del portal se cambió el ${fechaEspanola(p.fecha)} (hora peninsular). Por seguridad, hemos cerrado todas las sesiones abiertas con la contraseña anterior.`,
      {
        antes: 'Si no ha sido usted, recupere su contraseña cuanto antes en ',
        enlace: p.enlaceRecuperar,
        texto: p.enlaceRecuperar,
        despues: ' y póngase en contacto con nosotros.',
      },
    ],
    pie: [],
  });
}

/**
 * Sent to the new address of an e-mail change: the link that confirms it lives 24 hours. Like the
 * activation mail, it goes to an unconfirmed address and carries no text the account holder typed.
 */
export function correoConfirmarEmail(p: { enlace: string }): Correo {
  return componer({
    subject: `Confirme su nuevo correo en el portal de ${GRUPO}`,
    saludo: saludo(''),
    parrafos: [
      'Hemos recibido una solicitud para usar esta dirección como correo electrónico de su cuenta del portal.',
      'Para confirmarla, abra el enlace siguiente. El enlace es válido durante 24 horas y solo puede usarse una vez. Hasta que lo confirme, su cuenta sigue usando la dirección anterior para iniciar sesión.',
    ],
    boton: { texto: 'Confirmar mi nuevo correo', enlace: p.enlace },
    pie: [
      'Al confirmarlo se cerrarán todas las sesiones abiertas y deberá iniciar sesión con esta dirección.',
      'Si no ha pedido este cambio, ignore este mensaje: no se cambiará nada.',
    ],
  });
}

/** Sent to the current address when an e-mail change is asked for, so its owner learns of it. */
export function correoAvisoCambioEmail(p: { nombre: string; nuevoEmail: string; fecha: Date; enlaceRecuperar: string }): Correo {
  return componer({
    subject: `Solicitud de cambio de correo en el portal de ${GRUPO}`,
    saludo: saludo(p.nombre),
    parrafos: [
      `El ${fechaEspanola(p.fecha)} (hora peninsular) se pidió cambiar el correo electrónico de su cuenta del portal a ${p.nuevoEmail}. El cambio solo se aplicará cuando se confirme desde esa dirección.`,
      {
        antes: 'Si no ha sido usted, alguien conoce su contraseña: cámbiela cuanto antes en ',
        enlace: p.enlaceRecuperar,
        texto: p.enlaceRecuperar,
        despues: ' y póngase en contacto con nosotros.',
      },
    ],
    pie: [],
  });
}

/** The moments a contractual modification request mails its holder. */
export type EventoModificacion = 'enviada' | 'aceptada' | 'rechazada' | 'activada' | 'anulada';

/**
 * The mail to the holder at each change of a contractual modification request: what was asked, the
 * new state and what it means (the rejection reason, the activation date), and a link to follow it.
 */
export function correoModificacion(p: {
  nombre: string;
  evento: EventoModificacion;
  referencia: string;
  /** "Cambio de potencia", "Cambio de titular"… */
  tipo: string;
  cups: string;
  direccion: string;
  /** What changes, in one line. */
  resumen: string;
  /** The rejection reason with its tabla 27 code. */
  motivo?: string;
  /** Activation date in words. */
  fechaActivacion?: string;
  enlace: string;
}): Correo {
  const asunto: Record<EventoModificacion, string> = {
    enviada: `Hemos recibido su solicitud ${p.referencia}`,
    aceptada: `Su solicitud ${p.referencia} ha sido aceptada`,
    rechazada: `Su solicitud ${p.referencia} ha sido rechazada`,
    activada: `Su solicitud ${p.referencia} está activada`,
    anulada: `Su solicitud ${p.referencia} ha sido anulada`,
  };
  const estado: Record<EventoModificacion, string> = {
    enviada:
      'La distribuidora la revisará en un plazo de cinco días hábiles y le avisaremos de cada cambio. Mientras no se acepte, puede anularla desde el portal.',
    aceptada: 'La distribuidora la ha aceptado y la está tramitando. Le avisaremos cuando el cambio esté aplicado a su contrato.',
    rechazada: `La distribuidora la ha rechazado por este motivo: ${p.motivo ?? 'no indicado'}. Si lo desea, puede presentar una nueva solicitud corregida.`,
    activada: `El cambio está aplicado a su contrato desde el ${p.fechaActivacion ?? 'día de hoy'}. Su comercializadora lo recibirá con la próxima información del contrato.`,
    anulada:
      'La solicitud se ha anulado a petición suya antes de que la distribuidora la tramitara. No se ha cambiado nada en su contrato.',
  };
  return componer({
    subject: asunto[p.evento],
    saludo: saludo(p.nombre),
    parrafos: [`${p.tipo} (${p.referencia}) del suministro ${p.cups}, ${p.direccion}.`, `${p.resumen}.`, estado[p.evento]],
    boton: { texto: 'Ver la solicitud', enlace: p.enlace },
    pie: ['Si no reconoce esta solicitud, póngase en contacto con su distribuidora desde el área privada del portal.'],
  });
}

/** To the account of the new holder when a change of holder is activated: the supply point is now theirs in the portal. */
export function correoNuevoTitular(p: {
  nombre: string;
  referencia: string;
  cups: string;
  direccion: string;
  fechaActivacion: string;
  enlace: string;
}): Correo {
  return componer({
    subject: `Ya es titular del suministro ${p.cups}`,
    saludo: saludo(p.nombre),
    parrafos: [
      `La distribuidora ha activado el cambio de titular ${p.referencia} del suministro ${p.cups}, ${p.direccion}, a su nombre desde el ${p.fechaActivacion}.`,
      'Desde ahora puede consultar sus datos, su consumo y sus potencias en el área privada del portal.',
    ],
    boton: { texto: 'Ver mis suministros', enlace: p.enlace },
    pie: [],
  });
}

/**
 * A step of a case that needs the other side (docs/decisions/017): what happened to the case, what
 * the reader must do now and by when, and the link to the case.
 */
export function correoExpediente(p: {
  nombre: string;
  referencia: string;
  /** What happened, in one sentence ("La distribuidora ha admitido a trámite su solicitud."). */
  hecho: string;
  /** The message the other side wrote, if any. */
  mensaje?: string | null;
  /** What the reader must do now and by when, if anything. */
  pendiente?: string | null;
  enlace: string;
}): Correo {
  return componer({
    subject: `${p.referencia}: ${p.hecho.replace(/\.$/, '')}`,
    saludo: saludo(p.nombre),
    parrafos: [
      `${p.hecho.replace(/\.$/, '')} (expediente ${p.referencia}).`,
      ...(p.mensaje ? [`Mensaje: «${p.mensaje}»`] : []),
      ...(p.pendiente ? [p.pendiente] : []),
    ],
    boton: { texto: 'Ver el expediente', enlace: p.enlace },
    pie: ['Este aviso se envía a las dos partes de un expediente cuando le toca actuar a quien lo recibe.'],
  });
}

/** What an interruption alert tells: the five events of docs/decisions/025-avisos-de-corte.md. */
export type EventoAvisoCorte = 'publicada' | 'cambiada' | 'cancelada' | 'comienza' | 'termina';

/** One of the recipient's own supply points an interruption alert names, with its stop link. */
export interface SuministroAvisado {
  cups: string;
  direccion: string;
  codigoPostal: string;
  municipio: string;
  /** suministro: the interruption lists it; zona: it is in its postal code or municipality; null: no longer concerned. */
  afecta: 'suministro' | 'zona' | null;
  /** The link that stops these alerts for this supply point, without logging in. */
  enlaceBaja: string;
}

/**
 * An interruption alert (docs/decisions/025-avisos-de-corte.md) to one holder: the event, their own
 * supply points it concerns (never anyone else's), the interruption's municipality, times in Madrid
 * time and public description, the link to «Mis interrupciones» and one stop link per supply point.
 */
export function correoAvisoCorte(p: {
  nombre: string;
  evento: EventoAvisoCorte;
  municipio: string;
  provincia: string;
  descripcion: string;
  inicio: Date;
  finPrevisto: Date | null;
  fin: Date | null;
  suministros: SuministroAvisado[];
  enlaceInterrupciones: string;
}): Correo {
  const lugar = `${p.municipio} (${p.provincia})`;
  const cuando = fechaEspanola(p.inicio);
  const asunto: Record<EventoAvisoCorte, string> = {
    publicada: `Corte de luz programado en ${p.municipio} el ${cuando}`,
    cambiada: `Ha cambiado el corte de luz programado en ${p.municipio}`,
    cancelada: `Anulado el corte de luz programado en ${p.municipio} el ${cuando}`,
    comienza: `Interrupción del suministro eléctrico en ${p.municipio}`,
    termina: `Ha terminado la interrupción del suministro eléctrico en ${p.municipio}`,
  };
  const entrada: Record<EventoAvisoCorte, string> = {
    publicada: `La distribuidora ha programado una interrupción del suministro eléctrico en ${lugar} que afecta a su punto de suministro.`,
    cambiada: `La distribuidora ha cambiado los datos de la interrupción programada del suministro eléctrico en ${lugar}. Estos son los datos actuales.`,
    cancelada: `La distribuidora ha anulado la interrupción programada del suministro eléctrico en ${lugar}: no habrá corte por estos trabajos.`,
    comienza: `Ha comenzado una interrupción del suministro eléctrico en ${lugar} que afecta a su punto de suministro.`,
    termina: `Ha terminado la interrupción del suministro eléctrico en ${lugar}. Si su suministro sigue sin luz, llame al teléfono de averías de su distribuidora.`,
  };
  const porQue = (s: SuministroAvisado) =>
    s.afecta === 'suministro'
      ? 'la interrupción incluye este punto de suministro'
      : s.afecta === 'zona'
        ? 'la interrupción ocurre en su zona (código postal o municipio) y puede afectarle'
        : 'tras el cambio, la interrupción ya no afecta a este punto de suministro';
  const datos = [
    `Inicio${p.evento === 'cancelada' ? ' que estaba previsto' : ''}: ${cuando} (hora peninsular).`,
    ...(p.evento === 'termina' && p.fin
      ? [`Fin: ${fechaEspanola(p.fin)} (hora peninsular).`]
      : p.evento !== 'cancelada'
        ? [p.finPrevisto ? `Fin previsto: ${fechaEspanola(p.finPrevisto)} (hora peninsular).` : 'Fin previsto: aún no se conoce.']
        : []),
    `Descripción: ${p.descripcion}`,
  ];
  return componer({
    subject: asunto[p.evento],
    saludo: saludo(p.nombre),
    parrafos: [
      entrada[p.evento],
      ...p.suministros.map((s) => `Suministro ${s.cups}, ${s.direccion}, ${s.codigoPostal} ${s.municipio}: ${porQue(s)}.`),
      ...datos,
    ],
    boton: { texto: 'Ver mis interrupciones', enlace: p.enlaceInterrupciones },
    pie: [
      'Recibe este aviso porque lo activó en el área privada del portal para estos suministros.',
      ...p.suministros.map((s) => ({
        antes: `Para dejar de recibir estos avisos del suministro ${s.cups}, abra este enlace y confírmelo (no hace falta iniciar sesión): `,
        enlace: s.enlaceBaja,
        texto: s.enlaceBaja,
      })),
    ],
  });
}

/**
 * To the holder when they authorise someone to read their supply points' data (docs/decisions/028):
 * who, what, until when, and how to revoke it, so an authorisation they did not give is noticed.
 */
export function correoAutorizacionDada(p: {
  nombre: string;
  /** Name and NIF of the authorised. */
  autorizado: string;
  /** One line per supply point: CUPS and address. */
  suministros: string[];
  /** Data kinds in words. */
  datos: string[];
  /** Last day in force, in words. */
  fin: string;
  enlace: string;
}): Correo {
  return componer({
    subject: 'Ha autorizado a un tercero a consultar sus datos de consumo',
    saludo: saludo(p.nombre),
    parrafos: [
      `Ha autorizado a ${p.autorizado} a consultar hasta el ${p.fin}, incluido, estos datos: ${p.datos.join(', ').toLowerCase()}.`,
      ...p.suministros.map((s) => `Suministro ${s}.`),
      'La persona o empresa autorizada podrá consultarlos desde su propia cuenta del portal, sin modificar nada de sus contratos. Puede revocar la autorización en cualquier momento.',
    ],
    boton: { texto: 'Ver mis autorizaciones', enlace: p.enlace },
    pie: ['Si no ha dado usted esta autorización, revóquela desde el portal y cambie su contraseña.'],
  });
}
