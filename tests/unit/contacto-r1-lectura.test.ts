/**
 * An R1 01 as supply companies' systems write it (ISO-8859-1, the namespace of the CNMC's schemas,
 * phones with their country prefix, a 22-character CUPS, readings by period) read back into the
 * portal's claim model (src/server/contacto/r1-intercambio.ts, docs/decisions/046), and the portal's
 * own R1 01 read back into the claim it was written from.
 */
import { describe, expect, it } from 'vitest';
import { leerMensaje } from '../../src/server/atr/xml.ts';
import { mensajeR101 } from '../../src/server/contacto/r1.ts';
import { cabeceraR1, reclamacionDeR101 } from '../../src/server/contacto/r1-intercambio.ts';

const R101 = `<?xml version='1.0' encoding='ISO-8859-1'?>
<MensajeReclamacionPeticion xmlns="http://localhost/elegibilidad">
  <CabeceraReclamacion>
    <CodigoREEEmpresaEmisora>9811</CodigoREEEmpresaEmisora>
    <CodigoREEEmpresaDestino>9901</CodigoREEEmpresaDestino>
    <CodigoDelProceso>R1</CodigoDelProceso>
    <CodigoDePaso>01</CodigoDePaso>
    <CodigoDeSolicitud>202612000042</CodigoDeSolicitud>
    <SecuencialDeSolicitud>01</SecuencialDeSolicitud>
    <FechaSolicitud>2026-12-01T10:09:41</FechaSolicitud>
    <CUPS>ES9901000000000001JN0F</CUPS>
  </CabeceraReclamacion>
  <SolicitudReclamacion>
    <DatosSolicitud>
      <Tipo>02</Tipo>
      <Subtipo>036</Subtipo>
    </DatosSolicitud>
    <VariablesDetalleReclamacion>
      <VariableDetalleReclamacion>
        <FechaLectura>2026-11-20</FechaLectura>
        <LecturasAportadas>
          <LecturaAportada><Integrador>AE</Integrador><CodigoPeriodoDH>A1</CodigoPeriodoDH><LecturaPropuesta>0000001162.00</LecturaPropuesta></LecturaAportada>
          <LecturaAportada><Integrador>AE</Integrador><CodigoPeriodoDH>A3</CodigoPeriodoDH><LecturaPropuesta>0000003106.50</LecturaPropuesta></LecturaAportada>
        </LecturasAportadas>
        <Contacto>
          <PersonaDeContacto>Pedro Núñez Ibáñez</PersonaDeContacto>
          <Telefono><PrefijoPais>34</PrefijoPais><Numero>666777888</Numero></Telefono>
          <Telefono><PrefijoPais>34</PrefijoPais><Numero>915551234</Numero></Telefono>
        </Contacto>
        <ImporteReclamado>120.40</ImporteReclamado>
      </VariableDetalleReclamacion>
    </VariablesDetalleReclamacion>
    <Cliente>
      <IdCliente><TipoIdentificador>NI</TipoIdentificador><Identificador>B36385870</Identificador><TipoPersona>J</TipoPersona></IdCliente>
      <Nombre><RazonSocial>Cocinas Millán y Muñoz, S.L.</RazonSocial></Nombre>
      <Telefono><PrefijoPais>33</PrefijoPais><Numero>612345678</Numero></Telefono>
      <IndicadorTipoDireccion>S</IndicadorTipoDireccion>
    </Cliente>
    <TipoReclamante>06</TipoReclamante>
    <Comentarios>La lectura facturada no es la del contador.</Comentarios>
  </SolicitudReclamacion>
</MensajeReclamacionPeticion>`;

describe('R1 01 de una comercializadora', () => {
  it('se lee en ISO-8859-1 y da la reclamación del modelo del portal', () => {
    const m = leerMensaje(Buffer.from(R101, 'latin1'));
    expect(cabeceraR1(m)).toMatchObject({
      emisora: '9811',
      destino: '9901',
      codigoSolicitud: '202612000042',
      cups: 'ES9901000000000001JN0F',
    });
    expect(reclamacionDeR101(m)).toEqual({
      rol: '06',
      tipo: '02',
      subtipo: '036',
      mensaje: 'La lectura facturada no es la del contador.',
      campos: {
        cups: 'ES9901000000000001JN',
        fechaLectura: '2026-11-20',
        lectura: 1162,
        lecturaP3: 3106.5,
        personaContacto: 'Pedro Núñez Ibáñez',
        telefono: '666777888',
        importeReclamado: 120.4,
        nifTitular: 'B36385870',
        nombreTitular: 'Cocinas Millán y Muñoz, S.L.',
      },
    });
  });

  it('el R1 01 que escribe el portal se lee como la reclamación de la que salió', () => {
    const reclamacion = {
      rol: '06' as const,
      tipo: '02' as const,
      subtipo: '004',
      campos: {
        cups: 'ES9901000000000001JN',
        nifTitular: '12345678Z',
        nombreTitular: 'Lucía Martín Gómez',
        telefono: '600123456',
        fechaIncidente: '2026-11-02',
        importeReclamado: 1234.5,
      },
      mensaje: 'Se quemó la nevera con la subida de tensión.',
    };
    const xml = mensajeR101({
      referencia: 'RC-2026-000123',
      distribuidora: 'epd',
      presentadoEn: '2026-12-01T09:00:00Z',
      emisora: '9811',
      reclamacion,
    });
    expect(reclamacionDeR101(leerMensaje(Buffer.from(xml)))).toEqual(reclamacion);
  });
});
