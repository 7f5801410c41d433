"""Reads every .xml file of a folder with gisce/gestionatr, as a supply company's system would.

Usage (docs/operations.md, «Los lectores del sector»):
  PYTHONPATH=<shims>:<gestionatr> python3 scripts/sector/juzgar-atr.py <folder>
Prints each file gestionatr refuses, with its reason, and the counts; exits 1 when any is refused.
"""
import glob
import os
import sys

from gestionatr.input.messages import message

malos = 0
buenos = 0
for f in sorted(glob.glob(os.path.join(sys.argv[1], '*.xml'))):
    with open(f, 'rb') as fichero:
        datos = fichero.read()
    try:
        m = message.Message(datos)
        m.parse_xml()
        buenos += 1
    except Exception as e:  # gestionatr raises several kinds; each is a refusal
        malos += 1
        print('RECHAZADO', os.path.basename(f), type(e).__name__, str(e)[:300].replace('\n', ' '))
print('leidos', buenos, 'rechazados', malos)
sys.exit(1 if malos else 0)
