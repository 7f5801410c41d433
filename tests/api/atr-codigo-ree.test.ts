/**
 * A supply company's REE code (CNMC table 1), which its ATR messages must carry as issuer
 * (docs/decisions/020): set by an administrator of a distributor the account is a supply company
 * of, only for supply companies, one account per code, audited.
 */
import { describe, expect, it } from 'vitest';
import { administrador, auditadas, cuenta, llamar } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';

const server = servidorDelFichero();
const poner = (token: string, id: string, codigoRee: string | null) =>
  llamar(server, 'PUT', `/api/administrador/usuarios/${id}/codigo-ree`, { token, body: { codigoRee } });

describe('código REE de una comercializadora', () => {
  it('lo asigna un administrador de su distribuidora, aparece en el detalle y queda auditado', async () => {
    const { a, token } = await administrador(server, ['epd-administrador']);
    const c = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
    const res = await poner(token, c.id, '9812');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { codigoRee: string }).codigoRee).toBe('9812');
    expect(await auditadas(server, 'usuario.codigo_ree', { actor: a.id, objetivo: c.id })).toHaveLength(1);
    expect(((await (await poner(token, c.id, null)).json()) as { codigoRee: string | null }).codigoRee).toBeNull();
  });

  it('rechaza un formato que no es de cuatro cifras, una cuenta sin permiso de comercializadora y un código ya asignado', async () => {
    const { token } = await administrador(server, ['epd-administrador']);
    const c = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
    expect((await poner(token, c.id, '98A1')).status).toBe(400);
    const hogar = await cuenta(server, { prefijo: 'consumidor' });
    expect((await poner(token, hogar.id, '9813')).status).toBe(409);
    const otra = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
    expect((await poner(token, otra.id, '9814')).status).toBe(200);
    expect((await poner(token, c.id, '9814')).status).toBe(409);
  });

  it('no lo asigna el administrador de otra distribuidora', async () => {
    const { token } = await administrador(server, ['eod-administrador']);
    const c = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
    expect([403, 404]).toContain((await poner(token, c.id, '9815')).status);
  });
});
