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
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(metodo, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(cuerpo.length, 18);
    local.writeUInt32LE(datos.length, 22);
    local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(metodo, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(cuerpo.length, 20);
    central.writeUInt32LE(datos.length, 24);
    central.writeUInt16LE(n.length, 28);
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
