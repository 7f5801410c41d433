"""Reads SIPS files (CNMC v2 and SIPS2026, PS and CONSUMOS) with gisce/sippers, as a supply company's loader would.

Usage (docs/operations.md, «Los lectores del sector»):
  SIPPERS=<sippers checkout> PYTHONPATH=<marshmallow 2.x>/src python3 scripts/sector/juzgar-sips.py <file or folder>...

sippers is Python 2 code on marshmallow 2. Debian has neither, so this runs its parsers on Python 3
with marshmallow 2.21 from source and five Python 2 idioms mapped to their Python 3 names, none of
which touches a rule: the package's __init__ (Python 2 syntax, only a logger and a Sentry client)
is replaced by a logger, and so is the parsers package's (implicit relative imports of every parser: the two CNMC ones are imported by name); `StringIO.StringIO` is io.StringIO; csv.DictReader's `next()` is
`__next__()`; a schema's field dict answers `iteritems()`. Each file goes through sippers'
`get_parser` (its name must match the parser's pattern) and `SipsFile`, line by line, header
included, as `sippers` does it. A line with marshmallow errors, or one the parser could not read, is
refused. Prints the refusals and the counts; exits 1 when any line is refused.
"""
import collections
import csv
import glob
import io
import logging
import os
import sys
import types

RAIZ = os.environ.get('SIPPERS') or sys.exit('SIPPERS must name a gisce/sippers checkout')

# The Python 2 idioms, mapped.
stringio = types.ModuleType('StringIO')
stringio.StringIO = io.StringIO
sys.modules['StringIO'] = stringio
csv.DictReader.next = csv.DictReader.__next__

import marshmallow  # noqa: E402  (2.x, from PYTHONPATH)
from marshmallow import schema as ma_schema  # noqa: E402

if not marshmallow.__version__.startswith('2.'):
    sys.exit('sippers needs marshmallow 2.x on PYTHONPATH, found ' + marshmallow.__version__)


class DictPy2(collections.OrderedDict):
    def iteritems(self):
        return iter(self.items())


ma_schema.BaseSchema.dict_class = property(lambda self: DictPy2)

paquete = types.ModuleType('sippers')
paquete.__path__ = [os.path.join(RAIZ, 'sippers')]
paquete.logger = logging.getLogger('sippers')
paquete.get_data = lambda p: os.path.join(RAIZ, 'sippers', 'data', p)
sys.modules['sippers'] = paquete
# sippers.parsers' __init__ imports every parser by Python 2's implicit relative import; the two CNMC
# parsers are imported by name instead.
parsers = types.ModuleType('sippers.parsers')
parsers.__path__ = [os.path.join(RAIZ, 'sippers', 'parsers')]
sys.modules['sippers.parsers'] = parsers

# sippers 3.0.0's SIPS2026 model does not import in any Python: one column is a bare name
# (`codigoMunicipioPS`, a NameError) and TABLA_115, which `tipoPersona` is checked against, is not
# imported. Both are mended in memory, as the column list and utils.py mean them; nothing else is touched.
ruta_modelo = os.path.join(RAIZ, 'sippers', 'models', 'cnmc_v3.py')
with io.open(ruta_modelo, encoding='utf-8') as fuente:
    texto = fuente.read()
arreglos = [
    ('\n    codigoMunicipioPS\n', '\n    codigoMunicipioPS = fields.String(allow_none=True)\n'),
    ('TABLA_108, TABLA_111\n', 'TABLA_108, TABLA_111, TABLA_115\n'),
]
for roto, bien in arreglos:
    if roto in texto:
        texto = texto.replace(roto, bien, 1)
        print('sippers models/cnmc_v3.py mended:', roto.strip(), '->', bien.strip())
modelo = types.ModuleType('sippers.models.cnmc_v3')
modelo.__file__ = ruta_modelo
sys.modules['sippers.models.cnmc_v3'] = modelo
import sippers.models  # noqa: E402,F401
exec(compile(texto, ruta_modelo, 'exec'), modelo.__dict__)

from sippers.parsers import cnmc_v2, cnmc_v3  # noqa: E402,F401  (they register themselves)
from sippers.parsers.parser import get_parser  # noqa: E402

ficheros = []
for a in sys.argv[1:]:
    ficheros += sorted(glob.glob(os.path.join(a, '*.csv'))) if os.path.isdir(a) else [a]

rechazadas = 0
leidas = 0
for f in ficheros:
    parser = get_parser(f)(strict=False)
    errores = []
    with io.open(f, 'r', encoding=parser.encoding, newline='') as fd:
        cabecera = fd.readline()
        for n, linea in enumerate(fd, start=2):
            try:
                datos, err = parser.parse_line(linea)
            except Exception as e:  # sippers logs these as critical and skips the line
                err = {'excepcion': '%s: %s' % (type(e).__name__, e)}
            if err:
                errores.append((n, err))
            else:
                leidas += 1
    rechazadas += len(errores)
    print('%-55s %-12s %5d lineas, %d rechazadas' % (os.path.basename(f), type(parser).__name__, n - 1, len(errores)))
    for n, err in errores[:5]:
        print('   linea %d: %s' % (n, str(err)[:400]))
print('leidas', leidas, 'rechazadas', rechazadas)
sys.exit(1 if rechazadas else 0)
