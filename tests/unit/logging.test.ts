import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loggablePath } from '../../src/server/http/logging.ts';
import { createLogger, safeError } from '../../src/server/logger.ts';

function capture() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _e, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, logger: createLogger('info', sink) };
}

describe('logs keep secrets out', () => {
  it.each([
    ['/sesion/activar-usuario/9f8e7d6c5b4a', '/sesion/activar-usuario/[redactado]'],
    ['/sesion/nueva-clave/abc/def', '/sesion/nueva-clave/[redactado]/def'],
    ['/medidas/curvas', '/medidas/curvas'],
  ])('logs %s as %s: the link id of activation and reset paths redacted', (ruta, registrada) => {
    expect(loggablePath(ruta)).toBe(registrada);
  });

  it('drops query parameters from a failed query error, in the message, the stack and the fields', () => {
    const cause = Object.assign(new Error('null value in column "nif" violates not-null constraint'), { code: '23502' });
    const err = Object.assign(
      new Error('Failed query: insert into users values ($1, $2)\nparams: secreto@example.com,$argon2id$v=19$hash'),
      {
        query: 'insert into users values ($1, $2)',
        params: ['secreto@example.com', '$argon2id$v=19$hash'],
        cause,
      },
    );
    const out = JSON.stringify(safeError(err));
    expect(out).not.toContain('secreto@example.com');
    expect(out).not.toContain('argon2id');
    expect(out).toContain('insert into users');
    expect(out).toContain('23502');
  });

  it('redacts passwords, tokens and authorization headers wherever they appear', () => {
    const { lines, logger } = capture();
    logger.info(
      {
        password: 'Hunter22',
        body: { passwordCopy: 'Hunter22', token: 'tok' },
        req: { headers: { authorization: 'Bearer abc', cookie: 'r=1' } },
      },
      'x',
    );
    const line = lines.join('');
    expect(line).not.toMatch(/Hunter22|Bearer abc|tok"|r=1/);
    expect(line).toContain('[redactado]');
  });

  it('serialises errors through the safe serializer', () => {
    const { lines, logger } = capture();
    logger.error({ err: Object.assign(new Error('Failed query: x\nparams: 1234'), { params: ['1234'] }) }, 'fallo');
    expect(lines.join('')).not.toContain('1234');
  });
});
