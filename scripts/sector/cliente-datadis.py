"""Runs a real Datadis client, uvejota/python-edata's DatadisConnector, against the portal, with only its
base address changed, and checks what it reads against the portal's own curve API.

Usage (docs/operations.md, «Un cliente de Datadis de verdad»):
  PYTHONPATH=<python-edata> python3 scripts/sector/cliente-datadis.py <portal base URL> <user> <password> [months]

edata is what Home Assistant's «edata» integration uses. Its module constants hold datadis.es's
addresses; they are rewritten to the portal's, nothing else. For every supply point the account
holds (get-supplies), the script reads its contracts (get-contract-detail), its hourly consumption of
the last `months` whole months (get-consumption-data, one month per call as edata does) and its
maximum powers (get-max-power), then asks the portal's own `GET /api/medidas/curva?resolucion=mes`
for the same months. It fails (exit 1) when edata warns that an answer lacks a field it needs, when a
call answers nothing, or when the hours, the estimated hours, the imported and the exported energy
differ from the portal's by a single Wh.
"""
import base64
import json
import logging
import sys
import tempfile
import urllib.request
from datetime import datetime

from dateutil.relativedelta import relativedelta

from edata.connectors import datadis

base, usuario, clave = sys.argv[1].rstrip('/'), sys.argv[2], sys.argv[3]
meses = int(sys.argv[4]) if len(sys.argv) > 4 else 12

for nombre in dir(datadis):
    if nombre.startswith('URL_') and isinstance(getattr(datadis, nombre), str):
        setattr(datadis, nombre, getattr(datadis, nombre).replace('https://datadis.es', base))


class Avisos(logging.Handler):
    def __init__(self):
        logging.Handler.__init__(self, logging.WARNING)
        self.mensajes = []

    def emit(self, record):
        self.mensajes.append(record.getMessage()[:300])


avisos = Avisos()
logging.getLogger('edata').addHandler(avisos)
fallos = []


def portal(ruta, token):
    peticion = urllib.request.Request(base + ruta, headers={'Authorization': 'Bearer ' + token})
    with urllib.request.urlopen(peticion) as r:
        return json.load(r)


def token_portal():
    basico = base64.b64encode(('%s:%s' % (usuario, clave)).encode('utf-8')).decode('ascii')
    peticion = urllib.request.Request(base + '/api/accesoUsuario', data=b'', method='POST', headers={'Authorization': 'Basic ' + basico})
    with urllib.request.urlopen(peticion) as r:
        return json.load(r)['jwtToken']


conector = datadis.DatadisConnector(usuario, clave, storage_path=tempfile.mkdtemp(prefix='edata-'))
if not conector.login():
    sys.exit('edata could not log in at %s' % base)
suministros = conector.get_supplies()
print('get-supplies: %d supply points' % len(suministros))
if not suministros:
    fallos.append('get-supplies answered no supply point')

hoy = datetime.today()
fin = datetime(hoy.year, hoy.month, 1)
inicio = fin - relativedelta(months=meses)
jwt = token_portal()
for s in suministros:
    cups, codigo = s['cups'], s['distributorCode']
    contratos = conector.get_contract_detail(cups, codigo)
    consumos = conector.get_consumption_data(cups, codigo, inicio, fin, '0', s['pointType'])
    potencias = conector.get_max_power(cups, codigo, inicio, fin)
    # edata keeps the hours whose start lies in [inicio, fin]: the last one is fin's first hour, outside the months asked.
    consumos = [c for c in consumos if c['datetime'] < fin]
    wh = round(sum(c['value_kWh'] for c in consumos) * 1000)
    vertido = round(sum(c['surplus_kWh'] for c in consumos) * 1000)
    estimadas = sum(1 for c in consumos if not c['real'])
    ultimo = (fin - relativedelta(days=1)).strftime('%Y-%m-%d')
    curva = portal('/api/medidas/curva?cups=%s&desde=%s&hasta=%s&resolucion=mes' % (cups, inicio.strftime('%Y-%m-%d'), ultimo), jwt)['totales']
    curva['exportadaWh'] = curva.get('exportadaWh') or 0  # absent (null) where the point exports nothing
    print(
        '%s (distribuidora %s, punto %s): %d contratos, %d horas (%d estimadas), %d Wh importados, %d Wh vertidos, %d maximos'
        % (cups, codigo, s['pointType'], len(contratos), len(consumos), estimadas, wh, vertido, len(potencias))
    )
    print('   el portal: %d horas (%d estimadas), %d Wh importados, %d Wh vertidos' % (curva['horasConDatos'], curva['horasEstimadas'], curva['importadaWh'], curva['exportadaWh']))
    if not contratos:
        fallos.append('%s: get-contract-detail answered no contract' % cups)
    if not potencias:
        fallos.append('%s: get-max-power answered nothing' % cups)
    for que, a, b in (
        ('horas', len(consumos), curva['horasConDatos']),
        ('horas estimadas', estimadas, curva['horasEstimadas']),
        ('Wh importados', wh, curva['importadaWh']),
        ('Wh vertidos', vertido, curva['exportadaWh']),
    ):
        if a != b:
            fallos.append('%s: %s de edata %d, del portal %d' % (cups, que, a, b))

for m in avisos.mensajes:
    fallos.append('edata: ' + m)
for f in fallos:
    print('FALLO', f)
print('correcto' if not fallos else '%d fallos' % len(fallos))
sys.exit(1 if fallos else 0)
