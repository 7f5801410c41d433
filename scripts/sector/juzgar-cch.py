"""Reads hourly curve files (P5D, F5D) with gisce/cchloader, as a supply company's loader would.

Usage (docs/operations.md, «Los lectores del sector»):
  PYTHONPATH=<stand-ins>:<marshmallow 2.x>/src:<cchloader> python3 scripts/sector/juzgar-cch.py <file or folder>...

Each file goes through cchloader's `get_parser` (its name must match the parser's pattern) and its
parser's `parse_line`, line by line, as `CchFile` does, in strict mode: a line with marshmallow errors or
one the parser could not read is refused. Also checked, as cchloader's loaders store them: every
line's timestamp and season read back as one instant, none twice per CUPS. Prints the refusals and the
counts; exits 1 when any line is refused.
"""
import glob
import os
import sys

import cchloader.parsers  # noqa: F401  (registers every parser)
from cchloader.parsers.parser import get_parser

ficheros = []
for a in sys.argv[1:]:
    if os.path.isdir(a):
        ficheros += sorted(f for f in glob.glob(os.path.join(a, '*')) if os.path.basename(f)[:4] in ('P5D_', 'F5D_'))
    else:
        ficheros.append(a)

rechazadas = 0
leidas = 0
for f in ficheros:
    parser = get_parser(f)(strict=True)
    errores = []
    vistos = set()
    n = 0
    with open(f, 'rb') as fd:
        for n, linea in enumerate(fd, start=1):
            try:
                datos, err = parser.parse_line(linea)
            except Exception as e:  # strict: marshmallow raises on a field it cannot read
                datos, err = None, {'excepcion': '%s: %s' % (type(e).__name__, e)}
            if not err:
                documento = datos.get('cchval') or datos.get('cchfact')
                clave = documento.data
                instante = (clave.get('name'), clave.get('datetime'), clave.get('season'))
                if instante in vistos:
                    err = {'repetido': 'the same hour and season twice for %s' % (instante,)}
                vistos.add(instante)
            if err:
                errores.append((n, err))
            else:
                leidas += 1
    rechazadas += len(errores)
    print('%-32s %-5s %6d lineas, %d rechazadas' % (os.path.basename(f), type(parser).__name__, n, len(errores)))
    for n, err in errores[:5]:
        print('   linea %d: %s' % (n, str(err)[:400]))
print('ficheros', len(ficheros), 'leidas', leidas, 'rechazadas', rechazadas)
sys.exit(1 if rechazadas else 0)
