import { decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { signAccessToken, verifyAccessToken } from '../../src/server/auth/jwt.ts';
import { credencialesBasic } from '../../src/server/http/entrada.ts';
import { deriveKey, randomToken, sha256Hex, successorToken } from '../../src/server/auth/tokens.ts';

const secret = new TextEncoder().encode('unit-secret-unit-secret-unit-secret-00');
const now = new Date('2026-11-02T09:00:00Z');
const claims = {
  sub: '0b9f5c1e-6c1a-4c55-9d8e-2f1f6a0c3d21',
  username: 'ana@correo.example',
  permisos: ['epd-contacto'],
  sid: '5d1c7a3e-2f4b-4c8d-9e0f-1a2b3c4d5e6f',
};

describe('access tokens', () => {
  it('carry sub, username, permisos, iat, exp (10 minutes later) and a jti', async () => {
    const token = await signAccessToken(secret, now, claims);
    const payload = decodeJwt(token);
    expect(payload).toMatchObject({ ...claims, iat: now.getTime() / 1000, exp: now.getTime() / 1000 + 600, aud: 'portal-api' });
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(payload).not.toHaveProperty('imp');
    expect(decodeJwt(await signAccessToken(secret, now, { ...claims, imp: 'admin-id' })).imp).toBe('admin-id');
  });

  it('are compact HS256 signatures that jose verifies on its own, and the same bytes it would sign', async () => {
    const token = await signAccessToken(secret, now, claims);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], audience: 'portal-api', currentDate: now });
    expect(payload).toMatchObject(claims);
    // jose signing the same header and payload gives the same signature: the HMAC is over the same input.
    const deJose = await new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret);
    expect(deJose.split('.')[2]).toBe(token.split('.')[2]);
  });

  it('verify until they expire, and not after', async () => {
    const token = await signAccessToken(secret, now, claims);
    expect(await verifyAccessToken(secret, token, new Date(now.getTime() + 599_000))).toMatchObject(claims);
    expect(await verifyAccessToken(secret, token, new Date(now.getTime() + 601_000))).toBeNull();
  });

  it('are still refused with a forged signature or under another secret after the genuine one was accepted', async () => {
    const token = await signAccessToken(secret, now, claims);
    expect(await verifyAccessToken(secret, token, now)).toMatchObject(claims);
    const [cabecera, cuerpo, firma] = token.split('.') as [string, string, string];
    const forjado = `${cabecera}.${cuerpo}.${firma.slice(0, -2)}${firma.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await verifyAccessToken(secret, forjado, now)).toBeNull();
    expect(await verifyAccessToken(new TextEncoder().encode('other-secret-other-secret-other-secr'), token, now)).toBeNull();
    // And the genuine one is still good.
    expect(await verifyAccessToken(secret, token, now)).toMatchObject(claims);
  });

  it('are refused, though signed with the key, without a session, issued in the future or living past ten minutes', async () => {
    const firmar = (cuerpo: Record<string, unknown>, iat: Date, exp: Date) =>
      new SignJWT(cuerpo)
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setAudience('portal-api')
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .setJti('j')
        .sign(secret);
    const en = (s: number) => new Date(now.getTime() + s * 1000);
    const cuerpo = { username: claims.username, permisos: [], sid: claims.sid };
    // The control: the same forge with every claim right passes, so each refusal below is for its one fault.
    expect(await verifyAccessToken(secret, await firmar(cuerpo, now, en(600)), now)).not.toBeNull();
    expect(await verifyAccessToken(secret, await firmar({ username: claims.username, permisos: [] }, now, en(600)), now)).toBeNull();
    expect(await verifyAccessToken(secret, await firmar({ ...cuerpo, sid: '' }, now, en(600)), now)).toBeNull();
    expect(await verifyAccessToken(secret, await firmar(cuerpo, en(3600), en(4200)), now)).toBeNull();
    expect(await verifyAccessToken(secret, await firmar(cuerpo, now, en(601)), now)).toBeNull();
    expect(await verifyAccessToken(secret, await firmar(cuerpo, now, en(365 * 24 * 3600)), now)).toBeNull();
    // A clock a few seconds ahead in another process is no fault.
    expect(await verifyAccessToken(secret, await firmar(cuerpo, en(20), en(620)), now)).not.toBeNull();
  });

  it('are refused when unsigned, signed with another key or algorithm, or meant for another audience', async () => {
    const base = () =>
      new SignJWT({ username: claims.username, permisos: [], sid: claims.sid })
        .setSubject(claims.sub)
        .setIssuedAt(now)
        .setExpirationTime(new Date(now.getTime() + 600_000))
        .setJti('j');
    const unsigned = new UnsecuredJWT({ username: claims.username, permisos: [], aud: 'portal-api', jti: 'j' })
      .setSubject(claims.sub)
      .setIssuedAt(now)
      .setExpirationTime(new Date(now.getTime() + 600_000))
      .encode();
    const otherKey = await base()
      .setAudience('portal-api')
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('x'.repeat(40)));
    const hs512 = await base().setAudience('portal-api').setProtectedHeader({ alg: 'HS512' }).sign(secret);
    const otherAudience = await base().setAudience('ftp').setProtectedHeader({ alg: 'HS256' }).sign(secret);
    for (const token of [unsigned, otherKey, hs512, otherAudience, 'no.es.jwt', '']) {
      expect(await verifyAccessToken(secret, token, now), token).toBeNull();
    }
  });
});

describe('refresh tokens and link ids', () => {
  it('are 256-bit base64url values, stored as SHA-256 hex', () => {
    const token = randomToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(token);
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('have one successor per token, computable only with the server key', () => {
    const key = deriveKey(secret, 'refresh-successor');
    const token = randomToken();
    expect(successorToken(key, token)).toBe(successorToken(key, token));
    expect(successorToken(key, token)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(successorToken(deriveKey(secret, 'otro'), token)).not.toBe(successorToken(key, token));
    expect(successorToken(key, randomToken())).not.toBe(successorToken(key, token));
  });
});

describe('Basic credentials', () => {
  const header = (s: string) => `Basic ${Buffer.from(s, 'utf8').toString('base64')}`;
  it('split at the first colon and read UTF-8', () => {
    expect(credencialesBasic(header('ana@correo.example:Año:2026'))).toEqual({ username: 'ana@correo.example', password: 'Año:2026' });
    expect(credencialesBasic(`basic   ${Buffer.from('12345678Z:x').toString('base64')}`)).toEqual({ username: '12345678Z', password: 'x' });
  });

  it('are null when absent or malformed', () => {
    for (const h of [undefined, '', 'Basic', 'Bearer abc', 'Basic !!!', header('sin-dos-puntos'), header(':solo-clave')]) {
      expect(credencialesBasic(h), String(h)).toBeNull();
    }
  });
});
