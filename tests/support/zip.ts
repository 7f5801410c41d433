/**
 * ZIP files written by hand after PKWARE's APPNOTE 4.3 (local headers, central directory, end
 * record), so the readers are tested against the format rather than against a zip library.
 */
import { crc32, deflateRawSync } from 'node:zlib';

/** A ZIP of the files given, deflated (method 8) or stored (method 0). */
export function zip(ficheros: { nombre: string; datos: Uint8Array }[], guardado = false): Buffer {
  const locales: Buffer[] = [];
  const centrales: Buffer[] = [];
  let desplazamiento = 0;
  for (const { nombre, datos } of ficheros) {
    const n = Buffer.from(nombre);
    const cuerpo = guardado ? Buffer.from(datos) : deflateRawSync(datos);
    const metodo = guardado ? 0 : 8;
    const crc = crc32(datos);
    // The fields both headers carry, from byte 8 of the local one and byte 10 of the central one.
    const comunes = (cabecera: Buffer, desde: number) => {
      cabecera.writeUInt16LE(metodo, desde);
      cabecera.writeUInt32LE(crc, desde + 6);
      cabecera.writeUInt32LE(cuerpo.length, desde + 10);
      cabecera.writeUInt32LE(datos.length, desde + 14);
      cabecera.writeUInt16LE(n.length, desde + 18);
      return cabecera;
    };
    const local = comunes(Buffer.alloc(30), 8);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    const central = comunes(Buffer.alloc(46), 10);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(desplazamiento, 42);
    locales.push(local, n, cuerpo);
    centrales.push(central, n);
    desplazamiento += local.length + n.length + cuerpo.length;
  }
  const directorio = Buffer.concat(centrales);
  const fin = Buffer.alloc(22);
  fin.writeUInt32LE(0x06054b50, 0);
  fin.writeUInt16LE(ficheros.length, 8);
  fin.writeUInt16LE(ficheros.length, 10);
  fin.writeUInt32LE(directorio.length, 12);
  fin.writeUInt32LE(desplazamiento, 16);
  return Buffer.concat([...locales, directorio, fin]);
}
